go test fuzz v1
string("https://ｅｘａｍｐｌｅ.com/")
