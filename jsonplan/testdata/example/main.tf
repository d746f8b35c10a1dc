resource "null_resource" "web" {}

resource "terraform_data" "greeting" {
  input = "hello"
}
