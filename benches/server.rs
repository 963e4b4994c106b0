//! Re-check latency of `tflint-merge server`: a module directory of 200 files (190 primary
//! files of three resources each, 10 override files), one buffer open; each round changes the
//! buffer and measures from the `didChange` sent to the end of the check's publication (the
//! server's `checked ... in N ms` log, sent after the diagnostics of every file), less the
//! 150 ms debounce. The worker's own time for the check is printed too.
//!
//! usage: cargo bench --bench server [-- ROUNDS]
//! prints `files=F bytes=B rounds=R seconds_median=S seconds_p90=S seconds_max=S
//! check_seconds_median=S` (seconds after the debounce).

#[path = "../tests/lsp_client/mod.rs"]
#[allow(dead_code)] // The tests use parts of the client this benchmark does not.
mod lsp_client;

use std::path::Path;
use std::time::{Duration, Instant};

use lsp_client::Client;
use serde_json::Value;

const FILES: usize = 200;
const OVERRIDES: usize = 10;
const DEBOUNCE: Duration = Duration::from_millis(150);

/// One resource of the directory; `ID` is replaced by its file and index.
const RESOURCE: &str = r#"resource "aws_security_group" "sg_ID" {
  name        = "sg-ID"
  description = "Security group ID"
  vpc_id      = var.vpc_id

  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }

  tags = {
    Name = "sg-ID"
  }
}

"#;

/// Overrides the first resource of file `FILE`.
const OVERRIDE: &str = r#"resource "aws_security_group" "sg_FILE_0" {
  description = "overridden"
}
"#;

/// Writes the directory; returns its bytes.
fn write_directory(dir: &Path) -> usize {
    let mut bytes = 0;
    let mut write = |name: String, text: String| {
        bytes += text.len();
        std::fs::write(dir.join(name), text).expect("write a file");
    };
    write(
        "file_000.tf".into(),
        "variable \"vpc_id\" {\n  type = string\n}\n".into(),
    );
    for file in 1..FILES - OVERRIDES {
        let text: String = (0..3)
            .map(|index| RESOURCE.replace("ID", &format!("{file}_{index}")))
            .collect();
        write(format!("file_{file:03}.tf"), text);
    }
    for file in 0..OVERRIDES {
        let text = OVERRIDE.replace("FILE", &(file + 1).to_string());
        write(format!("file_{file:03}_override.tf"), text);
    }
    bytes
}

fn seconds(d: Duration) -> String {
    format!("{:.4}", d.as_secs_f64())
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical root");
    let bytes = write_directory(&root);
    let mut client = Client::start(&root, Value::Object(Default::default()), Value::Null);
    let edited = root.join("file_001.tf");
    let text = std::fs::read_to_string(&edited).expect("read the edited file");
    let is_checked_log = |m: &Value| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.starts_with("checked "))
    };
    client.open(&edited, &text);
    client.wait_for("the first check", is_checked_log);

    let mut latencies = Vec::new();
    let mut checks = Vec::new();
    for round in 0..rounds {
        // A new text each round, so that every check has something to read.
        let changed = text.replace("Security group 1_0", &format!("Security group {round}"));
        let sent = Instant::now();
        client.change(&edited, round as i64 + 2, &changed);
        let log = client.wait_for("the check of the edit", is_checked_log);
        latencies.push(sent.elapsed().saturating_sub(DEBOUNCE));
        let message = log["params"]["message"].as_str().unwrap_or_default();
        let millis = message
            .rsplit(" in ")
            .next()
            .and_then(|t| t.trim_end_matches(" ms").parse::<u64>().ok())
            .unwrap_or_default();
        checks.push(Duration::from_millis(millis));
    }
    client.shut_down();
    latencies.sort();
    checks.sort();
    let at = |list: &[Duration], fraction: f64| list[((list.len() - 1) as f64 * fraction) as usize];
    println!(
        "files={FILES} bytes={bytes} rounds={rounds} seconds_median={} seconds_p90={} \
         seconds_max={} check_seconds_median={}",
        seconds(at(&latencies, 0.5)),
        seconds(at(&latencies, 0.9)),
        seconds(at(&latencies, 1.0)),
        seconds(at(&checks, 0.5)),
    );
}
