go test fuzz v1
string("https://user:pass@example.com/")
byte(2)
[]byte("")
uint16(0)
string("")
