NAME = "pkg"
