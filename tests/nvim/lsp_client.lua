-- Neovim's built-in LSP client against `tflint-merge server`, for tests/server.rs. Written for
-- Neovim 0.7 (Debian bookworm's), which has vim.lsp.start_client, vim.lsp.buf_attach_client
-- and vim.diagnostic.get, but not vim.lsp.start (0.8) or `nvim -l` (0.9).
--
-- Environment: TFLINT_MERGE (the binary), ROOT (the workspace), FILE (the file to open),
-- RENAME_FROM and RENAME_TO (an edit made to that buffer once the first findings are in),
-- EDIT_FINDING (`code:line` of a finding the edit brings), NAVIGATE_AT (`line:col`, 1-based, of
-- a reference in that file to go to the definition of, and list the references of).
-- Prints `== PHASE` and then one line per diagnostic, `file:line:col: severity[code] message`,
-- for the findings after opening and after the edit, one line per location, `file:line:col`,
-- for the definitions and references (phases DEFINITION and REFERENCES), then `== STOPPED`
-- once the server exited.

local function out(line)
  io.stdout:write(line .. "\n")
end

local function fail(message)
  out("== FAILED " .. message)
  vim.cmd("cqall!")
end

local function code_of(d)
  if d.code then
    return d.code
  end
  local lsp = d.user_data and d.user_data.lsp
  return lsp and lsp.code or "?"
end

local severities = { "error", "warning", "information", "hint" }

local function dump(phase)
  out("== " .. phase)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ":t")
    local first = vim.split(d.message, "\n")[1]
    table.insert(lines, string.format("%s:%d:%d: %s[%s] %s", name, d.lnum + 1, d.col + 1,
      severities[d.severity] or "?", code_of(d), first))
  end
  table.sort(lines)
  for _, line in ipairs(lines) do
    out(line)
  end
end

local function has(code, line)
  for _, d in ipairs(vim.diagnostic.get()) do
    if code_of(d) == code and (line == nil or d.lnum + 1 == line) then
      return true
    end
  end
  return false
end

vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("FILE")))
local buffer = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "tflint-merge",
  cmd = { os.getenv("TFLINT_MERGE"), "server" },
  root_dir = os.getenv("ROOT"),
})
if not client then
  return fail("the client did not start")
end
vim.lsp.buf_attach_client(buffer, client)

if not vim.wait(20000, function() return has("override_noop") end, 20) then
  return fail("no findings after opening")
end
dump("OPENED")

-- Go to definition and find references, as `gd` and `gr` ask (synchronously here, to print).
local nav_line, nav_col = os.getenv("NAVIGATE_AT"):match("^(%d+):(%d+)$")
local position = {
  textDocument = vim.lsp.util.make_text_document_params(buffer),
  position = { line = tonumber(nav_line) - 1, character = tonumber(nav_col) - 1 },
}
local function dump_locations(phase, method, params)
  local answer = vim.lsp.get_client_by_id(client).request_sync(method, params, 10000, buffer)
  if not answer or answer.err or not answer.result then
    return fail(method .. " was not answered")
  end
  out("== " .. phase)
  for _, location in ipairs(answer.result) do
    local name = vim.fn.fnamemodify(vim.uri_to_fname(location.uri), ":t")
    local start = location.range.start
    out(string.format("%s:%d:%d", name, start.line + 1, start.character + 1))
  end
  return true
end
if not dump_locations("DEFINITION", "textDocument/definition", position) then
  return
end
position.context = { includeDeclaration = false }
if not dump_locations("REFERENCES", "textDocument/references", position) then
  return
end

local from, to = os.getenv("RENAME_FROM"), os.getenv("RENAME_TO")
local lines = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
for i, line in ipairs(lines) do
  lines[i] = line:gsub(vim.pesc(from), to)
end
vim.api.nvim_buf_set_lines(buffer, 0, -1, false, lines)
local want_code, want_line = os.getenv("EDIT_FINDING"):match("^(.-):(%d+)$")
if not vim.wait(20000, function() return has(want_code, tonumber(want_line)) end, 20) then
  return fail("no findings after the edit")
end
-- Findings of other files are published with the same check: let them all arrive.
vim.wait(300)
dump("EDITED")

vim.lsp.stop_client(client)
if not vim.wait(10000, function() return vim.lsp.client_is_stopped(client) end, 20) then
  return fail("the server did not stop")
end
out("== STOPPED")
vim.cmd("qall!")
