go test fuzz v1
string("https://\u200bexample.com/")
byte(0)
[]byte("")
uint16(0)
string("")
