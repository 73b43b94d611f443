go test fuzz v1
string("*.example.com:443")
string("example.com")
uint16(80)
[]byte("\x7f\x00\x00\x02")
