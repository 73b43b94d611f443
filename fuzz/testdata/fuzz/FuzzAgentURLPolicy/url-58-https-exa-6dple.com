go test fuzz v1
string("https://exa%6Dple.com/")
byte(2)
[]byte("")
uint16(0)
string("")
