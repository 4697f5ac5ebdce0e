//! A small shell-command splitter for the edit heuristics (§2.12): simple commands separated by
//! `&&`, `||`, `;`, `|`, `&` and newlines, with quotes, backslashes, `$(…)`, redirections and
//! here-documents. It only has to find words, redirect targets and heredoc bodies; anything it
//! cannot follow simply yields fewer edits.

/// One simple command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Command {
    pub words: Vec<String>,
    /// `(operator, target)`: `>`, `>>`, `<`; fd numbers dropped (`2>` is `>`… to the target).
    pub redirects: Vec<(String, String)>,
    /// The body of the command's here-document (`<<EOF`), when it has one.
    pub heredoc: Option<String>,
    /// Targets of stderr redirects (`2>file`): not counted as edits.
    pub stderr_targets: Vec<String>,
}

pub(crate) fn split(src: &str) -> Vec<Command> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut cur = Command::default();
    let mut word = String::new();
    let mut in_word = false;
    // Pending redirect operator awaiting its target word.
    let mut pending: Option<(String, bool)> = None;
    // Heredoc delimiters waiting for the end of the line: (delimiter, strip tabs, command slot).
    let mut heredocs: Vec<(String, bool, usize)> = Vec::new();
    let mut i = 0;

    fn end_word(
        word: &mut String,
        in_word: &mut bool,
        cur: &mut Command,
        pending: &mut Option<(String, bool)>,
        heredocs: &mut Vec<(String, bool, usize)>,
        slot: usize,
    ) {
        if !*in_word {
            return;
        }
        let w = std::mem::take(word);
        *in_word = false;
        match pending.take() {
            Some((op, _)) if op.starts_with("<<") && op != "<<<" => {
                heredocs.push((w, op == "<<-", slot));
            }
            Some((_, true)) => cur.stderr_targets.push(w),
            Some((op, false)) => cur.redirects.push((op, w)),
            None => cur.words.push(w),
        }
    }

    let finish = |cur: &mut Command, out: &mut Vec<Command>| {
        let c = std::mem::take(cur);
        if !c.words.is_empty() || !c.redirects.is_empty() {
            out.push(c);
        }
    };

    while i < chars.len() {
        let c = chars[i];
        let slot = out.len();
        match c {
            '\'' | '"' | '\\' => {
                if let Some((end, made)) = quoted_piece(&chars, i, &mut word) {
                    i = end;
                    in_word |= made;
                }
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                in_word = true;
                let mut depth = 0;
                while i < chars.len() {
                    word.push(chars[i]);
                    if chars[i] == '(' {
                        depth += 1;
                    } else if chars[i] == ')' {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    i += 1;
                }
            }
            '`' => {
                in_word = true;
                word.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '`' {
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('`');
            }
            '#' if !in_word => {
                while i + 1 < chars.len() && chars[i + 1] != '\n' {
                    i += 1;
                }
            }
            ' ' | '\t' | '\r' => {
                end_word(&mut word, &mut in_word, &mut cur, &mut pending, &mut heredocs, slot)
            }
            '\n' | ';' | '&' | '|' | '(' | ')' | '{' | '}'
                if !(matches!(c, '{' | '}') && in_word) =>
            {
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    // `&>file`: stdout and stderr to a file.
                    end_word(&mut word, &mut in_word, &mut cur, &mut pending, &mut heredocs, slot);
                    i += 1;
                    let append = chars.get(i + 1) == Some(&'>');
                    if append {
                        i += 1;
                    }
                    pending = Some((if append { ">>" } else { ">" }.to_string(), false));
                    i += 1;
                    continue;
                }
                end_word(&mut word, &mut in_word, &mut cur, &mut pending, &mut heredocs, slot);
                // Heredoc bodies start after the newline that ends the line.
                if c == '\n' && !heredocs.is_empty() {
                    let slot_now = slot;
                    finish(&mut cur, &mut out);
                    i += 1;
                    for (delim, strip, hslot) in std::mem::take(&mut heredocs) {
                        let mut body = String::new();
                        loop {
                            if i >= chars.len() {
                                break;
                            }
                            let start = i;
                            while i < chars.len() && chars[i] != '\n' {
                                i += 1;
                            }
                            let line: String = chars[start..i].iter().collect();
                            i += 1;
                            let cmp =
                                if strip { line.trim_start_matches('\t') } else { line.as_str() };
                            if cmp.trim_end_matches('\r') == delim {
                                break;
                            }
                            body.push_str(&line);
                            body.push('\n');
                        }
                        let target = if hslot < out.len() {
                            hslot
                        } else {
                            slot_now.min(out.len().saturating_sub(1))
                        };
                        if let Some(cmd) = out.get_mut(target) {
                            cmd.heredoc.get_or_insert_with(String::new).push_str(&body);
                        }
                    }
                    continue;
                }
                finish(&mut cur, &mut out);
            }
            '>' | '<' => {
                // A word of digits right before is an fd number.
                let fd = if in_word && !word.is_empty() && word.chars().all(|d| d.is_ascii_digit())
                {
                    let f = std::mem::take(&mut word);
                    in_word = false;
                    Some(f)
                } else {
                    end_word(&mut word, &mut in_word, &mut cur, &mut pending, &mut heredocs, slot);
                    None
                };
                let mut op = c.to_string();
                while i + 1 < chars.len()
                    && (chars[i + 1] == c || chars[i + 1] == '-' && op == "<<")
                {
                    i += 1;
                    op.push(chars[i]);
                }
                if chars.get(i + 1) == Some(&'&') {
                    // `2>&1`, `>&2`: a duplication, not a file.
                    i += 2;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    continue;
                }
                if chars.get(i + 1) == Some(&'|') {
                    i += 1;
                }
                let stderr = fd.as_deref().is_some_and(|f| f != "1") && op.starts_with('>');
                pending = Some((op, stderr));
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    let slot = out.len();
    end_word(&mut word, &mut in_word, &mut cur, &mut pending, &mut heredocs, slot);
    finish(&mut cur, &mut out);
    out
}

/// One quoted piece of a word as bash reads it, starting at `chars[i]`: `'…'` verbatim; `"…"`
/// with `\"`, `\\`, `\$` and `` \` `` unescaped and `\<newline>` removed; or a backslash escape
/// outside quotes (`\<newline>` removed). Appends the text to `word` and returns the index of the
/// piece's last character and whether it made a word (a removed line continuation alone does
/// not); `None` when `chars[i]` starts no such piece (a trailing backslash).
fn quoted_piece(chars: &[char], mut i: usize, word: &mut String) -> Option<(usize, bool)> {
    match chars.get(i)? {
        '\'' => {
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                word.push(chars[i]);
                i += 1;
            }
            Some((i, true))
        }
        '"' => {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' && i + 1 < chars.len() && "\"\\$`\n".contains(chars[i + 1]) {
                    i += 1;
                    if chars[i] != '\n' {
                        word.push(chars[i]);
                    }
                } else {
                    word.push(chars[i]);
                }
                i += 1;
            }
            Some((i, true))
        }
        '\\' if i + 1 < chars.len() => {
            i += 1;
            let made = chars[i] != '\n';
            if made {
                word.push(chars[i]);
            }
            Some((i, made))
        }
        _ => None,
    }
}

/// Splits one argument string the way a shell would (quotes, backslashes); for SWE-agent's
/// text-mode tool arguments.
pub(crate) fn words(src: &str) -> Vec<String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' | '"' | '\\' if c != '\\' || i + 1 < chars.len() => {
                if let Some((end, made)) = quoted_piece(&chars, i, &mut word) {
                    i = end;
                    in_word |= made;
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    if in_word {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_redirects_and_heredocs() {
        let cmds = split("cd /testbed && cat <<'EOF' > a.py\nx = 1\nEOF\nsed -i 's/a/b/' b.py 2>/dev/null; echo hi >> c.txt | tee -a d.txt");
        assert_eq!(cmds.len(), 5, "{cmds:?}");
        assert_eq!(cmds[0].words, ["cd", "/testbed"]);
        assert_eq!(cmds[1].words, ["cat"]);
        assert_eq!(cmds[1].redirects, [(">".to_string(), "a.py".to_string())]);
        assert_eq!(cmds[1].heredoc.as_deref(), Some("x = 1\n"));
        assert_eq!(cmds[2].words, ["sed", "-i", "s/a/b/", "b.py"]);
        assert!(cmds[2].redirects.is_empty());
        assert_eq!(cmds[3].redirects, [(">>".to_string(), "c.txt".to_string())]);
        assert_eq!(cmds[4].words, ["tee", "-a", "d.txt"]);
        let q = split("python3 -c \"open('x.py','w').write('a; b')\" 2>&1");
        assert_eq!(q.len(), 1);
        assert_eq!(q[0].words[2], "open('x.py','w').write('a; b')");
    }

    #[test]
    fn argument_words() {
        assert_eq!(words("'a b' \"c\\\"d\" e\\ f"), ["a b", "c\"d", "e f"]);
    }

    /// `split` and `words` read quotes with the one `quoted_piece`: the same words, line
    /// continuations (`\<newline>`, inside double quotes too) removed as bash removes them.
    #[test]
    fn split_and_words_quote_alike() {
        for src in ["'a b' \"c\\\"d\\$x\" e\\ f", "x\\\ny \"p\\\nq\" 'r\\\ns'", "\"\" ''"] {
            let from_split: Vec<String> = split(src).into_iter().flat_map(|c| c.words).collect();
            assert_eq!(words(src), from_split, "{src:?}");
        }
        assert_eq!(words("x\\\ny \"p\\\nq\" 'r\\\ns'"), ["xy", "pq", "r\\\ns"]);
        assert_eq!(words("\"\" ''"), ["", ""]);
    }
}
