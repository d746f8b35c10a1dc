variable "rev" {
  default = "1"
}
locals {
  names = { a = "x", b = "y" }
}
resource "terraform_data" "src" {
  input = "src"
}
resource "terraform_data" "cnt" {
  count = 2
  input = "c${count.index}"
}
resource "terraform_data" "checked" {
  input = "checked"
}
module "m" {
  source   = "./m"
  for_each = local.names
  name     = each.value
  rev      = var.rev
}
resource "terraform_data" "summary" {
  input = { for k, t in module.m : k => t.id }
}
resource "terraform_data" "narrow" {
  input            = terraform_data.src.input
  triggers_replace = [var.rev, terraform_data.cnt[1].output]
}
resource "terraform_data" "each" {
  for_each = { for i, c in terraform_data.cnt : i => c.id }
  input    = "${each.value}-${var.rev}"
}
check "c" {
  assert {
    condition     = terraform_data.checked.output != ""
    error_message = "empty"
  }
}
output "narrow" {
  value = terraform_data.narrow.output
}
