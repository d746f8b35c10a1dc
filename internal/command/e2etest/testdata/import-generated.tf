# __generated__ by plankit
# Please review these resources and move them into your main configuration files.

# __generated__ by plankit from "g-1"
resource "null_resource" "gen" {
  triggers = null
}
