go test fuzz v1
string("https://\u200bexample.com/")
