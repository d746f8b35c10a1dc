variable "name" {}
variable "rev" {}
resource "terraform_data" "r" {
  input = "${var.name}-${var.rev}"
}
output "id" {
  value = terraform_data.r.id
}
output "nothing" {
  value = null
}
