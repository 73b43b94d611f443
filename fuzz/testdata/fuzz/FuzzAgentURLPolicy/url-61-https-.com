go test fuzz v1
string("https://ｅｘａｍｐｌｅ.com/")
byte(1)
[]byte("")
uint16(0)
string("")
