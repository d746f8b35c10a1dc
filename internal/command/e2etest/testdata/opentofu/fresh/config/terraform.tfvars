keys = {
  first  = {}
  second = { key_algorithm = "RSA", roles = ["admin"] }
}
