go test fuzz v1
string("https://ex\u00adample.com/")
byte(0)
[]byte("")
uint16(0)
string("")
