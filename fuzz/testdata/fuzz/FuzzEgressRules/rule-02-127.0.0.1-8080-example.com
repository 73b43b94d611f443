go test fuzz v1
string("127.0.0.1:8080")
string("EXAMPLE.com.")
uint16(8080)
[]byte("\n\x01\x02\x03")
