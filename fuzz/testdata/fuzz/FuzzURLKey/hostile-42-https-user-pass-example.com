go test fuzz v1
string("https://user:pass@example.com/")
