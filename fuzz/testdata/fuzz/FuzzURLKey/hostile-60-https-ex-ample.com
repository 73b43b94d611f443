go test fuzz v1
string("https://ex\u00adample.com/")
