resource "aws_s3_bucket" "assets" {
  bucket = "assets"
  tags = {
    Team = "web"
  
}
