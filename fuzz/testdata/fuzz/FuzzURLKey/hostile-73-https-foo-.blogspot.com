go test fuzz v1
string("https://foo-.blogspot.com/")
