go test fuzz v1
string("2606:4700::/32")
string("example.com")
uint16(8443)
[]byte("]\xb8\xd8\"")
