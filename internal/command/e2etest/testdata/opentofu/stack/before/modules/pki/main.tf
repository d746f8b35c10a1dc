variable "cn" {
  type = string
}

resource "terraform_data" "ca" {
  input = "ca-${var.cn}"
}

output "ca_cert_pem" {
  value = terraform_data.ca.output
}
