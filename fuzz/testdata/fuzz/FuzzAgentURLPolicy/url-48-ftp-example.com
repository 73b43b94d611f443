go test fuzz v1
string("ftp://example.com/")
byte(0)
[]byte("")
uint16(0)
string("")
