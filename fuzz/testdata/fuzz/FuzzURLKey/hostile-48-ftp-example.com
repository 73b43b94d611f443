go test fuzz v1
string("ftp://example.com/")
