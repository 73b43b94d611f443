go test fuzz v1
string("https://example.com:/")
byte(2)
[]byte("")
uint16(0)
string("")
