//! A minimal LSP client over a child process's stdio, for tests/server.rs and
//! benches/server.rs: it starts `tflint-merge server`, initializes it, sends notifications and
//! requests, and waits for the messages it is told to.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long to wait for a message before failing: checks take milliseconds, the debounce is
/// 150 ms, and the machine may be busy.
const PATIENCE: Duration = Duration::from_secs(20);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Messages read while waiting for something else, in order.
    seen: Vec<Value>,
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    pub fn start(root: &Path, capabilities: Value, options: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tflint-merge"))
            .arg("server")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            next_id: 0,
            seen: Vec::new(),
        };
        let root_uri = uri(root);
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root_uri,
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        assert!(
            result["capabilities"]["hoverProvider"] == json!(true),
            "{result}"
        );
        client.notify("initialized", json!({}));
        client
    }

    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Writes `bytes` as they are, framing and all.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The server's peak resident memory so far, in KiB (Linux; `None` elsewhere).
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.answer(method, params);
        assert!(response.get("error").is_none(), "{response}");
        response["result"].clone()
    }

    /// The whole answer to a request: its `result` or its `error`.
    pub fn answer(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(&format!("the answer to {method}"), |m| m["id"] == id)
    }

    /// The first message (already seen, or to come) that `wanted` accepts; it is consumed.
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&wanted) {
            return self.seen.remove(i);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.seen.push(message),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out waiting for {what}; seen: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server stopped before {what}; seen: {:#?}", self.seen)
                }
            }
        }
    }

    /// The next diagnostics published for the file `name`.
    pub fn diagnostics(&mut self, name: &str) -> Vec<Value> {
        self.publication(name)["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// The parameters of the next `publishDiagnostics` for the file `name`.
    pub fn publication(&mut self, name: &str) -> Value {
        let suffix = format!("/{name}");
        let message = self.wait_for(&format!("diagnostics of {name}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"]
                    .as_str()
                    .is_some_and(|u| u.ends_with(&suffix))
        });
        message["params"].clone()
    }

    pub fn open(&mut self, path: &Path, text: &str) {
        let document =
            json!({"uri": uri(path), "languageId": "terraform", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
    }

    pub fn change(&mut self, path: &Path, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri(path), "version": version},
                "contentChanges": [{"text": text}],
            }),
        );
    }

    /// The Markdown of the hover at `line` and `character` (0-based) of `path`.
    pub fn hover(&mut self, path: &Path, line: u32, character: u32) -> String {
        let position = json!({"line": line, "character": character});
        let params = json!({"textDocument": {"uri": uri(path)}, "position": position});
        let hover = self.request("textDocument/hover", params);
        let text = hover["contents"]["value"].as_str();
        text.unwrap_or_else(|| panic!("no hover text: {hover}"))
            .to_string()
    }

    pub fn shut_down(mut self) {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        assert_eq!(self.exit_code(), Some(0));
    }

    /// Says `exit` without `shutdown` first; the server's exit code.
    pub fn exit_abruptly(mut self) -> Option<i32> {
        self.notify("exit", Value::Null);
        self.exit_code()
    }

    fn exit_code(&mut self) -> Option<i32> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}
