go test fuzz v1
string("https://www.www.example.com/")
byte(1)
[]byte("")
uint16(0)
string("")
