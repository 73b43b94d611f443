go test fuzz v1
string("example.com")
string("a.example.com")
uint16(443)
[]byte("\x7f\x00\x00\x01")
