go test fuzz v1
string("fc00::/7")
string("EXAMPLE.com.")
uint16(0)
[]byte("]\xb8\xd8#")
