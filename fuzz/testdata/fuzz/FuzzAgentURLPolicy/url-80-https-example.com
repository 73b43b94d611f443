go test fuzz v1
string("https://example.com/\xff\xfe")
byte(0)
[]byte("")
uint16(0)
string("")
