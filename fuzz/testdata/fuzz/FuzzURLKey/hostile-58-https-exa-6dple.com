go test fuzz v1
string("https://exa%6Dple.com/")
