//! The server's stdio: a reader thread that frames the client's messages with a bound on what
//! it holds, and a writer thread. `lsp-server`'s own stdio reader allocates whatever a
//! `Content-Length` header asks for before the body arrives (`read_msg_text` in its
//! `src/msg.rs`), so one header could take all the machine's memory; this one refuses a message
//! longer than [`MAX_MESSAGE_BYTES`] without reading it into memory, answers it with an error
//! when it is a request, and logs it.
//!
//! A refused or malformed message leaves the stream's framing in doubt: the reader then looks
//! for the next header, `Content-Length: <digits>\r\n`, which no JSON body holds (JSON escapes
//! a line break inside a string, and the header is no JSON token), and goes on from there. So a
//! length larger than its body does not swallow the messages after it.

use std::io::{self, Read, Write};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{ErrorCode, Message, Notification, RequestId, Response};
use lsp_types::notification::{LogMessage, Notification as _};
use lsp_types::{LogMessageParams, MessageType};

use crate::input::read::DEFAULT_MAX_FILE_BYTES;

/// The longest message read: a document at the command line's size limit, with room for the
/// JSON escapes of its text.
pub(crate) const MAX_MESSAGE_BYTES: u64 = 4 * DEFAULT_MAX_FILE_BYTES;

/// The longest header line: headers are a name and a number.
const MAX_HEADER_LINE: usize = 4096;

/// How much of a refused message's start is read for its id.
const ID_PREFIX: usize = 4096;

/// The header that starts every message, as clients write it.
const HEADER: &[u8] = b"Content-Length:";

/// The reader and writer threads.
pub(crate) struct Transport {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Transport {
    /// Waits for both threads: the reader ends at `exit` or the end of stdin, the writer once
    /// every sender is dropped.
    pub(crate) fn join(self) -> io::Result<()> {
        let reader = self.reader.join();
        let writer = self.writer.join();
        for joined in [reader, writer] {
            joined.map_err(|_| io::Error::other("a transport thread panicked"))??;
        }
        Ok(())
    }
}

/// The channels of a connection over `input` and `output`, and its threads.
pub(crate) fn connect(
    input: impl Read + Send + 'static,
    mut output: impl Write + Send + 'static,
) -> (Sender<Message>, Receiver<Message>, Transport) {
    let (to_writer, outgoing) = bounded::<Message>(0);
    let writer = std::thread::Builder::new()
        .name("tflint-merge-writer".into())
        .spawn(move || {
            for message in outgoing {
                message.write(&mut output)?;
                output.flush()?;
            }
            Ok(())
        })
        .expect("spawn the writer thread");
    let (to_server, incoming) = bounded::<Message>(0);
    let answers = to_writer.clone();
    let reader = std::thread::Builder::new()
        .name("tflint-merge-reader".into())
        .spawn(move || read_messages(&mut Input::new(input), &to_server, &answers))
        .expect("spawn the reader thread");
    (to_writer, incoming, Transport { reader, writer })
}

/// Reads messages until `exit` or the end of the input, passing each to `server`; what it
/// refuses it answers (requests) and logs through `writer`.
fn read_messages(
    input: &mut Input<impl Read>,
    server: &Sender<Message>,
    writer: &Sender<Message>,
) -> io::Result<()> {
    let refuse = |id: Option<RequestId>, why: String| {
        eprintln!("tflint-merge server: {why}");
        if let Some(id) = id {
            let code = ErrorCode::InvalidRequest as i32;
            let _ = writer.send(Message::Response(Response::new_err(id, code, why.clone())));
        }
        let params = LogMessageParams {
            typ: MessageType::ERROR,
            message: why,
        };
        let log = Notification::new(LogMessage::METHOD.to_string(), params);
        let _ = writer.send(Message::Notification(log));
    };
    loop {
        let length = match read_header(input)? {
            Header::End => return Ok(()),
            Header::Malformed(why) => {
                refuse(None, why);
                input.skip_to_header()?;
                continue;
            }
            Header::Length(length) => length,
        };
        if length > MAX_MESSAGE_BYTES {
            let prefix = input.peek_some(ID_PREFIX.min(length as usize))?;
            let id = request_id(prefix);
            let why = format!(
                "refused a message of {length} bytes (the limit is {MAX_MESSAGE_BYTES} bytes)"
            );
            refuse(id, why);
            input.skip_to_header()?;
            continue;
        }
        let body = match input.read_body(length as usize)? {
            Body::Whole(body) => body,
            Body::Cut(body) => {
                let why = format!(
                    "a message said it was {length} bytes long, but the next message started \
                     after {} bytes",
                    body.len()
                );
                refuse(request_id(&body), why);
                continue;
            }
        };
        let message: Message = match serde_json::from_slice(&body) {
            Ok(message) => message,
            Err(error) => {
                refuse(request_id(&body), format!("a malformed message: {error}"));
                continue;
            }
        };
        let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
        if server.send(message).is_err() || exit {
            return Ok(());
        }
    }
}

enum Header {
    Length(u64),
    Malformed(String),
    End,
}

/// Reads the header lines of one message, up to the empty line.
fn read_header(input: &mut Input<impl Read>) -> io::Result<Header> {
    let mut length = None;
    loop {
        let Some(line) = input.read_line(MAX_HEADER_LINE)? else {
            return Ok(Header::End);
        };
        let Some(line) = line.strip_suffix(b"\r\n") else {
            let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
            return Ok(Header::Malformed(format!("a malformed header: {shown:?}")));
        };
        if line.is_empty() {
            return Ok(match length {
                Some(length) => Header::Length(length),
                None => Header::Malformed("a message without Content-Length".into()),
            });
        }
        let text = String::from_utf8_lossy(line);
        if let Some((name, value)) = text.split_once(':')
            && name.eq_ignore_ascii_case("Content-Length")
        {
            match value.trim().parse::<u64>() {
                Ok(value) => length = Some(value),
                Err(_) => {
                    let why = format!("a malformed Content-Length: {:?}", value.trim());
                    return Ok(Header::Malformed(why));
                }
            }
        }
    }
}

enum Body {
    Whole(Vec<u8>),
    /// The next message's header came before the length said: the body up to it.
    Cut(Vec<u8>),
}

/// The `id` of a request, from the start of its JSON text (the whole text need not be there):
/// the value of a member `id` of the top-level object, a number or a string.
fn request_id(text: &[u8]) -> Option<RequestId> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let end = string_end(text, i)?;
                if depth == 1 && &text[i..end] == b"\"id\"" {
                    let rest = &text[end..];
                    let rest = rest
                        .trim_ascii_start()
                        .strip_prefix(b":")?
                        .trim_ascii_start();
                    let value_end = match rest.first()? {
                        b'"' => string_end(rest, 0)?,
                        _ => rest
                            .iter()
                            .position(|b| !b.is_ascii_digit() && *b != b'-')?,
                    };
                    return match serde_json::from_slice::<serde_json::Value>(&rest[..value_end]) {
                        Ok(serde_json::Value::Number(n)) => n
                            .as_i64()
                            .and_then(|n| i32::try_from(n).ok())
                            .map(RequestId::from),
                        Ok(serde_json::Value::String(s)) => Some(RequestId::from(s)),
                        _ => None,
                    };
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where the JSON string that starts at `start` ends (after its closing quote).
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The client's bytes, read in chunks, with what the reader looked at but did not take.
struct Input<R> {
    source: R,
    buffer: Vec<u8>,
    /// Where the bytes not yet taken start in `buffer`.
    at: usize,
}

/// The bytes read from the client at a time.
const CHUNK: usize = 64 * 1024;

impl<R: Read> Input<R> {
    fn new(source: R) -> Input<R> {
        Input {
            source,
            buffer: Vec::new(),
            at: 0,
        }
    }

    fn pending(&self) -> &[u8] {
        &self.buffer[self.at..]
    }

    /// Reads one more chunk after the pending bytes; false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        self.buffer.drain(..self.at);
        self.at = 0;
        let had = self.buffer.len();
        self.buffer.resize(had + CHUNK, 0);
        let read = loop {
            match self.source.read(&mut self.buffer[had..]) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                other => break other,
            }
        };
        self.buffer.truncate(had + *read.as_ref().unwrap_or(&0));
        Ok(read? > 0)
    }

    /// A line with its `\n`; at the end of the input, what is left (`None` when nothing is).
    /// A line longer than `max` is cut there.
    fn read_line(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        loop {
            let pending = self.pending();
            if let Some(i) = memchr::memchr(b'\n', &pending[..pending.len().min(max)]) {
                return Ok(Some(self.take(i + 1)));
            }
            if pending.len() >= max {
                return Ok(Some(self.take(max)));
            }
            if !self.fill()? {
                let rest = self.take(self.pending().len());
                return Ok((!rest.is_empty()).then_some(rest));
            }
        }
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        let taken = self.pending()[..n].to_vec();
        self.at += n;
        taken
    }

    /// At least one byte and at most `n` of what comes next, without taking them (fewer at
    /// the end of the input).
    fn peek_some(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.pending().is_empty() {
            self.fill()?;
        }
        let pending = self.pending();
        Ok(&pending[..pending.len().min(n)])
    }

    /// Where the next header starts in the pending bytes, if it does.
    fn find_header(&self, from: usize) -> Option<usize> {
        let pending = self.pending();
        memchr::memmem::find_iter(&pending[from..], HEADER)
            .map(|i| from + i)
            .find(|&i| is_header(&pending[i..]))
    }

    /// Takes a body of `length` bytes, or the bytes up to the next header if one comes first.
    fn read_body(&mut self, length: usize) -> io::Result<Body> {
        let mut scanned = 0;
        loop {
            let seen = self.pending().len().min(length);
            if let Some(i) = self.find_header(scanned).filter(|&i| i < seen) {
                return Ok(Body::Cut(self.take(i)));
            }
            if seen == length {
                // A header that starts in the body and ends after it is no header.
                return Ok(Body::Whole(self.take(length)));
            }
            // A header cut by the chunk's end is looked for again with the next chunk.
            scanned = seen.saturating_sub(HEADER.len() + 24);
            if !self.fill()? {
                return Ok(Body::Cut(self.take(self.pending().len())));
            }
        }
    }

    /// Drops bytes up to the next header (or the end of the input), holding a chunk at most.
    fn skip_to_header(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = self.find_header(0) {
                self.at += i;
                return Ok(());
            }
            // Keep what could be the start of a header cut by the chunk's end.
            let keep = self.pending().len().min(HEADER.len() + 24);
            self.at = self.buffer.len() - keep;
            if !self.fill()? {
                self.at = self.buffer.len();
                return Ok(());
            }
        }
    }
}

/// Whether `bytes` start with a whole `Content-Length: <digits>\r\n` line. (Cut short, it is
/// not one yet.)
fn is_header(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(HEADER) else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest[digits..].starts_with(b"\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// Reads `input` as the server would: the messages it passes on, and what it writes back.
    fn read_all(input: String) -> (Vec<Message>, Vec<Message>) {
        let (to_server, incoming) = crossbeam_channel::unbounded();
        let (to_writer, outgoing) = crossbeam_channel::unbounded();
        let mut input = Input::new(io::Cursor::new(input.into_bytes()));
        read_messages(&mut input, &to_server, &to_writer).expect("read");
        drop((to_server, to_writer));
        (
            incoming.into_iter().collect(),
            outgoing.into_iter().collect(),
        )
    }

    fn method(message: &Message) -> String {
        match message {
            Message::Request(r) => r.method.clone(),
            Message::Notification(n) => n.method.clone(),
            Message::Response(r) => format!("response {}", r.id),
        }
    }

    const HOVER: &str = r#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{}}"#;
    const OPENED: &str =
        r#"{"jsonrpc":"2.0","method":"initialized","params":{"t":"a\r\nContent-Length: 1\r\n"}}"#;

    /// A length over the limit is refused at once, with an error answer to the request and a
    /// log line, and the messages after its short body are read.
    #[test]
    fn a_huge_length_is_refused_and_the_next_message_read() {
        let refused = r#"{"jsonrpc":"2.0","id":"big","method":"textDocument/hover","params":{}}"#;
        let input = format!(
            "Content-Length: 100000000000\r\n\r\n{refused}{}{}",
            framed(HOVER),
            framed(OPENED)
        );
        let (passed, written) = read_all(input);
        let methods: Vec<String> = passed.iter().map(method).collect();
        assert_eq!(methods, ["textDocument/hover", "initialized"]);
        let Message::Response(answer) = &written[0] else {
            panic!("{written:?}")
        };
        assert_eq!(answer.id, RequestId::from("big".to_string()));
        let error = answer.response_result.as_ref().expect_err("an error");
        assert!(error.message.contains("100000000000 bytes"), "{error:?}");
        assert_eq!(method(&written[1]), "window/logMessage");
    }

    /// A length longer than its body, under the limit: the body ends where the next header
    /// starts, and that message is read.
    #[test]
    fn a_length_longer_than_its_body_does_not_swallow_the_next_message() {
        let request = r#"{"jsonrpc":"2.0","id":3,"method":"x"}"#;
        let input = format!("Content-Length: 5000\r\n\r\n{request}{}", framed(HOVER));
        let (passed, written) = read_all(input);
        assert_eq!(
            passed.iter().map(method).collect::<Vec<_>>(),
            ["textDocument/hover"]
        );
        assert_eq!(method(&written[0]), "response 3");
    }

    /// Text that looks like a header inside a JSON string is body; a chunk's end inside a
    /// header is no trouble; a malformed header is skipped.
    #[test]
    fn headers_are_found_only_where_they_can_be() {
        let long = format!(
            r#"{{"jsonrpc":"2.0","method":"initialized","params":{{"t":"{}"}}}}"#,
            "Content-Length: 12 x".repeat(2 * CHUNK / 20)
        );
        let input = format!(
            "Bad\r\n\r\n{}{}{}",
            framed(&long),
            framed(OPENED),
            framed(HOVER)
        );
        let (passed, _) = read_all(input);
        let methods: Vec<String> = passed.iter().map(method).collect();
        assert_eq!(
            methods,
            ["initialized", "initialized", "textDocument/hover"]
        );
    }

    #[test]
    fn a_request_id_is_read_from_the_start_of_its_text() {
        assert_eq!(
            request_id(br#"{"a":{"id":1},"id":42,"#),
            Some(RequestId::from(42))
        );
        assert_eq!(
            request_id(br#"{"m":"\"id\"","id" : "x\"y","params":{"text":"#),
            Some(RequestId::from("x\"y".to_string()))
        );
        assert_eq!(request_id(br#"{"method":"didChange","params":{"#), None);
    }
}
