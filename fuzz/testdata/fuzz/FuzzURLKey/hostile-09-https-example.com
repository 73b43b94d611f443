go test fuzz v1
string("https://example.com/?")
