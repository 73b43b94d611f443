go test fuzz v1
string("*.evil.test")
string("a.example.com")
uint16(8080)
[]byte("\b\b\b\b")
