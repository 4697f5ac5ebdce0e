#!/usr/bin/env python3
"""Write the demo agent run in tasks/demo/trajectories/: agent logs we wrote ourselves, in two
formats, each showing a different failure mode (see tasks/demo/README.md, "The demo agent run").

Every command of a mini-swe-agent log is really run, in bash, on a fresh git copy of the base
repository, so each observation is the real output and return code, and each submission is the
real `git diff --cached` of the result. The SWE-agent 0.x log replays its `edit` commands the way
SWE-agent's windowed editor does (lines L..M replaced; rejected edits leave the file unchanged);
its lint messages are what flake8's F821 reports for the rejected text.

    python3 tasks/demo/tools/make_trajectories.py

Standard library only; needs git and bash. Output is deterministic.
"""
import json
import os
import shutil
import subprocess
import tempfile

DEMO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(DEMO, "trajectories")
TMP = tempfile.mkdtemp(prefix="refscore-demo-traj-")
WORK = os.path.join(TMP, "work")
ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C.UTF-8",
           GIT_AUTHOR_NAME="demo", GIT_AUTHOR_EMAIL="demo@localhost",
           GIT_COMMITTER_NAME="demo", GIT_COMMITTER_EMAIL="demo@localhost",
           GIT_AUTHOR_DATE="2000-01-01T00:00:00+0000", GIT_COMMITTER_DATE="2000-01-01T00:00:00+0000",
           PYTHONDONTWRITEBYTECODE="1")
SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached"


def git(*args):
    return subprocess.run(["git", *args], cwd=WORK, env=ENV, check=True,
                          stdout=subprocess.PIPE).stdout.decode("utf-8")


def fresh(repo):
    if os.path.exists(WORK):
        shutil.rmtree(WORK)
    shutil.copytree(os.path.join(DEMO, "repositories", repo), WORK)
    git("init", "-q")
    with open(os.path.join(WORK, ".git/info/attributes"), "w") as f:
        f.write("* -text -filter -ident\n")
    git("add", "-A", "-f")
    git("commit", "-qm", "base")


def sh(command):
    p = subprocess.run(["bash", "-c", command], cwd=WORK, env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode("utf-8").replace(WORK, "/testbed")


def problem(kind, repo, task):
    with open(os.path.join(DEMO, "problems", "%s_problems" % kind, repo, "%s-task.txt" % task),
              encoding="utf-8") as f:
        return f.read()


def write(name, data):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("wrote", name)


MINI_SYSTEM = ("You are a helpful assistant that can interact with a computer.\n\nYour response must "
               "contain exactly ONE bash code block with ONE command (or commands connected with && or ||).")


def mini_instance(task_text):
    return ("Please solve this issue: %s\n\nYou can execute bash commands and edit files to implement the "
            "necessary changes. The repository is in /testbed. When you are done, run `%s`."
            % (task_text, SUBMIT.split(" && ")[0]))


class Mini:
    """mini-swe-agent v2 (`trajectory_format: mini-swe-agent-1.1`). `tools`: tool-calling mode
    (`tool_calls` + `role: tool`), else text mode (```mswea_bash_command``` blocks)."""

    def __init__(self, instance_id, task_text, model, tools):
        self.id, self.model, self.tools = instance_id, model, tools
        self.messages = [
            {"role": "system", "content": MINI_SYSTEM, "extra": {}},
            {"role": "user", "content": mini_instance(task_text), "extra": {}},
        ]
        self.calls = 0
        self.cost = 0.0
        self.prompt = 1400

    def act(self, thought, command):
        self.calls += 1
        step_cost = round(0.0021 + 0.0004 * self.calls, 4)
        self.cost = round(self.cost + step_cost, 4)
        rc, out = sh(command)
        usage = {"prompt_tokens": self.prompt, "completion_tokens": 60 + 7 * len(command) // 10,
                 "total_tokens": 0}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        extra = {"actions": [{"command": command}], "cost": step_cost,
                 "response": {"usage": usage}, "timestamp": 1767225600.0 + 10 * self.calls}
        if self.tools:
            call_id = "call_%s_%02d" % (self.id.replace("-", "")[:10], self.calls)
            extra["actions"][0]["tool_call_id"] = call_id
            self.messages.append({"role": "assistant", "content": thought, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": "bash", "arguments": json.dumps({"command": command})}}],
                "extra": extra})
        else:
            self.messages.append({"role": "assistant", "content": "THOUGHT: %s\n\n```mswea_bash_command\n%s\n```"
                                  % (thought, command), "extra": extra})
        submitted = command == SUBMIT and out.startswith("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
        if submitted:
            return out.split("\n", 1)[1] if "\n" in out else ""
        obs = "<returncode>%d</returncode>\n<output>\n%s</output>" % (rc, out)
        if self.tools:
            self.messages.append({"role": "tool", "tool_call_id": call_id, "content": obs,
                                  "extra": {"returncode": rc, "raw_output": out}})
        else:
            self.messages.append({"role": "user", "content": obs, "extra": {"returncode": rc}})
        self.prompt += usage["completion_tokens"] + (len(obs) + 3) // 4
        return None

    def submit(self, thought):
        patch = self.act(thought, SUBMIT)
        assert patch is not None, "the submit command did not submit"
        self.messages.append({"role": "exit", "content": patch,
                              "extra": {"exit_status": "Submitted", "submission": patch}})
        return {
            "info": {
                "model_stats": {"instance_cost": self.cost, "api_calls": self.calls},
                "config": {"agent": {"step_limit": 50, "cost_limit": 3.0},
                           "agent_type": "minisweagent.agents.default.DefaultAgent",
                           "model": {"model_name": self.model},
                           "model_type": "minisweagent.models.litellm_model.LitellmModel",
                           "environment": {"cwd": "/testbed"},
                           "environment_type": "minisweagent.environments.local.LocalEnvironment"},
                "mini_version": "2.2.7",
                "exit_status": "Submitted",
                "submission": patch,
            },
            "messages": self.messages,
            "trajectory_format": "mini-swe-agent-1.1",
            "instance_id": self.id,
        }


# --------------------------------------------------------------------------- 1: a solve
def solve():
    task = "move-strip-html-to-sanitize"
    fresh("tinyfeed_refactor")
    m = Mini(task, problem("descriptive", "tinyfeed_refactor", task), "demo/solver-1", tools=False)
    m.act("Find every use of strip_html first.", "grep -rn strip_html --include=*.py --include=*.md .")
    m.act("Look at the top of render.py, where strip_html and its patterns live.",
          "sed -n '1,25p' tinyfeed/render.py")
    m.act("Create the new module with the function, its patterns and imports.",
          "cat <<'EOF' > tinyfeed/sanitize.py\n"
          '"""Turn the HTML of feed summaries into plain text."""\n\nimport html\nimport re\n\n'
          '_TAG = re.compile(r"<[^>]+>")\n_SPACE = re.compile(r"\\s+")\n\n\n'
          "def strip_html(text, limit=None):\n"
          '    """Plain text from an HTML fragment: tags dropped, entities decoded,\n'
          '    whitespace collapsed; cut to ``limit`` characters with an ellipsis."""\n'
          '    plain = _SPACE.sub(" ", html.unescape(_TAG.sub(" ", text or ""))).strip()\n'
          "    if limit is not None and len(plain) > limit:\n"
          '        plain = plain[: max(0, limit - 1)].rstrip() + "\\u2026"\n'
          "    return plain\nEOF")
    m.act("Replace the first 18 lines of render.py (docstring, imports, patterns, strip_html) with the "
          "new header that imports strip_html.",
          "python3 - <<'EOF'\nfrom pathlib import Path\np = Path('tinyfeed/render.py')\n"
          "lines = p.read_text().split('\\n')\n"
          "head = ['\"\"\"Render feeds as plain text or Markdown.\"\"\"', '', 'from tinyfeed.models import Feed', "
          "'from tinyfeed.sanitize import strip_html']\n"
          "p.write_text('\\n'.join(head + lines[18:]))\nEOF")
    m.act("Point the other imports at the new module.",
          "sed -i 's/from tinyfeed.render import strip_html/from tinyfeed.sanitize import strip_html/' "
          "tinyfeed/parser.py && sed -i 's/^from tinyfeed.render import render_markdown, render_text, strip_html$/"
          "from tinyfeed.render import render_markdown, render_text\\nfrom tinyfeed.sanitize import strip_html/' "
          "tests/test_render.py")
    m.act("Update the docs.",
          "sed -i 's/`strip_html` in `tinyfeed.render`/`strip_html` in `tinyfeed.sanitize`/' docs/guide.md && "
          "sed -i 's/`tinyfeed.merge`, `tinyfeed.render`,/`tinyfeed.merge`, `tinyfeed.render`, `tinyfeed.sanitize`,/' "
          "README.md && git diff --stat")
    m.act("Check that everything still imports and strip_html works.",
          "python3 -c \"import tinyfeed.render, tinyfeed.parser; from tinyfeed.sanitize import strip_html; "
          "print(strip_html('<p>a &amp; b</p>'))\"")
    data = m.submit("The move is complete; submit.")
    write("%s.traj.json" % task, data)


# --------------------------------------------------------------------------- 2: untouched targets, a loop
def untouched_loop():
    task = "rename-feed-item-to-entry"
    fresh("tinyfeed_refactor")
    m = Mini(task, problem("lazy", "tinyfeed_refactor", task), "demo/looper-1", tools=True)
    m.act("Where is FeedItem defined?", "grep -n FeedItem tinyfeed/models.py")
    m.act("Rename the class and its uses in models.py.", "sed -i 's/FeedItem/FeedEntry/g' tinyfeed/models.py")
    for _ in range(3):
        m.act("Check that the package still imports.", "python3 -c 'import tinyfeed'")
    data = m.submit("The class is renamed; submit.")
    write("%s.traj.json" % task, data)


# --------------------------------------------------------------------------- 2b: the same agent, descriptive
def guided():
    """The agent of `untouched_loop` on the same task under the descriptive instructions: it
    finds most files, misses one constructor call in parser.py and the guide (FM-8's input)."""
    task = "rename-feed-item-to-entry"
    fresh("tinyfeed_refactor")
    m = Mini(task, problem("descriptive", "tinyfeed_refactor", task), "demo/looper-1", tools=True)
    m.act("List every mention of FeedItem.", "grep -rn FeedItem --include=*.py --include=*.md .")
    m.act("Rename it in the files the instructions name.",
          "sed -i 's/FeedItem/FeedEntry/g' tinyfeed/models.py tinyfeed/merge.py tinyfeed/__init__.py "
          "tests/test_parser.py tests/test_merge.py README.md")
    m.act("Now parser.py: the import and the constructor call.",
          "sed -i 's/import Feed, FeedItem/import Feed, FeedEntry/; 0,/FeedItem(/s//FeedEntry(/' "
          "tinyfeed/parser.py && grep -n 'Feed[A-Z][a-z]*(' tinyfeed/parser.py")
    m.act("Check that the package still imports.", "python3 -c 'import tinyfeed'")
    data = m.submit("The rename is done; submit.")
    write("%s.descriptive.traj.json" % task, data)


# --------------------------------------------------------------------------- 3: linter-rejected edits (0.x)
ROOT = "/ledgerly_refactor"
SYSTEM_0X = ("SETTING: You are an autonomous programmer, and you're working directly in the command line "
             "with a special interface.\n\nThe special interface consists of a file editor that shows you "
             "100 lines of a file at a time.\nCOMMANDS:\nopen <path> [<line_number>]\ngoto <line_number>\n"
             "search_dir <search_term> [<dir>]\nedit <start_line>:<end_line>\n<replacement_text>\nend_of_edit\n"
             "submit\n")


def lines_of(path):
    with open(os.path.join(WORK, path), encoding="utf-8", newline="") as f:
        return f.read().split("\n")


def numbered(path, start=1, window=100, lines=None):
    lines = list(lines if lines is not None else lines_of(path))
    if lines and lines[-1] == "":
        lines.pop()
    start = max(1, start)
    body = "\n".join("%d:%s" % (i, lines[i - 1]) for i in range(start, min(len(lines), start + window - 1) + 1))
    head = "[File: %s/%s (%d lines total)]\n" % (ROOT, path, len(lines))
    if start > 1:
        head += "(%d more lines above)\n" % (start - 1)
    return head + body


def lint_rejected():
    task = "rename-parse-amount"
    fresh("ledgerly_refactor")
    steps, history = [], []
    history.append({"role": "system", "content": SYSTEM_0X, "agent": "primary"})
    history.append({"role": "user", "content": "We're currently solving the following issue within our "
                    "repository. Here's the issue text:\nISSUE:\n%s\n\nINSTRUCTIONS:\nWhen you're satisfied "
                    "with all of the changes you've made, you can submit your changes to the code base by "
                    "simply running the submit command.\n\n(Open file: n/a)\n(Current directory: %s)\nbash-$"
                    % (problem("base", "ledgerly_refactor", task), ROOT), "agent": "primary"})
    state = {"open_file": "n/a"}

    def step(thought, action, observation, open_file=None):
        response = "%s\n\n```\n%s\n```" % (thought, action.rstrip("\n"))
        # SWE-agent 0.x records the state before the action runs.
        steps.append({"action": action, "observation": observation, "response": response,
                      "state": json.dumps({"open_file": state["open_file"], "working_dir": ROOT}) + "\n",
                      "thought": thought + "\n\n"})
        if open_file:
            state["open_file"] = "%s/%s" % (ROOT, open_file)
        history.append({"role": "assistant", "content": response, "thought": thought + "\n\n",
                        "action": action, "agent": "primary"})
        history.append({"role": "user", "content": "%s\n(Open file: %s)\n(Current directory: %s)\nbash-$"
                        % (observation, state["open_file"], ROOT), "agent": "primary"})

    def find(path, needle):
        return next(i for i, l in enumerate(lines_of(path), 1) if needle in l)

    def edit(path, a, b, text, errors=None):
        old = lines_of(path)
        new = old[: a - 1] + text.split("\n") + old[b:]
        action = "edit %d:%d\n%s\nend_of_edit\n" % (a, b, text)
        if errors:
            obs = ("Your proposed edit has introduced new syntax error(s). Please understand the fixes and "
                   "retry your edit commmand.\n\nERRORS:\n%s\n\nThis is how your edit would have looked if "
                   "applied\n-------------------------------------------------\n%s\n"
                   "-------------------------------------------------\n\nThis is the original code before "
                   "your edit\n-------------------------------------------------\n%s\n"
                   "-------------------------------------------------\nYour changes have NOT been applied. "
                   "Please fix your edit command and try again.\nYou either need to 1) Specify the correct "
                   "start/end line arguments or 2) Correct your edit code.\nDO NOT re-run the same failed "
                   "edit command. Running it again will lead to the same error."
                   % ("\n".join("- %s" % e for e in errors), numbered(path, a - 5, 12, new),
                      numbered(path, a - 5, 12, old)))
        else:
            with open(os.path.join(WORK, path), "w", encoding="utf-8", newline="") as f:
                f.write("\n".join(new))
            obs = ("File updated. Please review the changes and make sure they are correct (correct "
                   "indentation, no duplicate lines, etc). Edit the file again if necessary.\n"
                   + numbered(path, max(1, a - 5), 12))
        return action, obs

    money, journal = "ledgerly/money.py", "ledgerly/journal.py"
    rc, out = sh("grep -rn 'parse_amount' --include=*.py ledgerly | head -20")
    step("First, find where parse_amount is defined and used.", "search_dir \"parse_amount\" ledgerly\n",
         "Found matches for \"parse_amount\" in %s/ledgerly:\n%sEnd of matches" % (ROOT, out))
    step("Open the module that defines it.", "open ledgerly/money.py\n", numbered(money), open_file=money)
    n = find(money, "def parse_amount(")
    line = lines_of(money)[n - 1]
    action, obs = edit(money, n, n, line.replace("parse_amount", "parse_money"))
    step("Rename the definition.", action, obs)
    step("Now the callers, starting with journal.py.", "open ledgerly/journal.py\n", numbered(journal),
         open_file=journal)
    use = next(i for i, l in enumerate(lines_of(journal), 1) if "parse_amount(" in l)
    use_line = lines_of(journal)[use - 1]
    call = use_line.replace("parse_amount(", "parse_money(")
    err = ["line %d col %d: F821 undefined name 'parse_money'" % (use, call.index("parse_money(") + 1)]
    for thought in ("Rename the call.", "Rename the call again."):
        action, obs = edit(journal, use, use, call, errors=err)
        step(thought, action, obs)
    imp = next(i for i, l in enumerate(lines_of(journal), 1) if "import" in l and "parse_amount" in l)
    imp_line = lines_of(journal)[imp - 1]
    err2 = ["line %d col %d: F821 undefined name 'parse_amount'" % (i, l.index("parse_amount(") + 1)
            for i, l in enumerate(lines_of(journal), 1) if "parse_amount(" in l]
    action, obs = edit(journal, imp, imp, imp_line.replace("parse_amount", "parse_money"), errors=err2)
    step("Then change the import first.", action, obs)
    git("add", "-A")
    patch = git("diff", "--cached")
    info = {"exit_status": "submitted (exit_cost)", "submission": patch,
            "model_stats": {"total_cost": 3.0127, "instance_cost": 3.0127, "tokens_sent": 981204,
                            "tokens_received": 2911, "api_calls": len(steps)}}
    data = {"environment": "swe_main", "trajectory": steps, "history": history, "info": info}
    write("%s.traj" % task, data)


if __name__ == "__main__":
    try:
        solve()
        untouched_loop()
        guided()
        lint_rejected()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
