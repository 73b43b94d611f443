go test fuzz v1
string("https://example.com/\x00")
byte(3)
[]byte("")
uint16(0)
string("")
