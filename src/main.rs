fn main() {
    std::process::exit(tflint_merge::cli::run());
}
