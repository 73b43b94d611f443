go test fuzz v1
string("https://www.www.example.com/")
