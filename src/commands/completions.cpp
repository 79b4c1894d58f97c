// The bash and zsh completion scripts (commands.h, completion_script), made
// from the command table: each command is offered its own flags only, and a
// flag's values (a fixed set, files, strategy names) as its row says. The
// build writes this output for `cmake --install` (cli/completions.cmake).
#include <sstream>

#include "commands.h"

namespace eruplan {

namespace {

// "-n,--nodes" -> {"-n", "--nodes"}; "--cpu-bind{true}" -> {"--cpu-bind"}.
std::vector<std::string> names_of(const OptionSpec& o) {
  std::vector<std::string> out;
  std::stringstream parts(o.names);
  for (std::string name; std::getline(parts, name, ',');)
    out.push_back(name.substr(0, name.find('{')));
  return out;
}

bool positional(const OptionSpec& o) {
  return o.kind == OptionKind::Positional || o.kind == OptionKind::Positionals;
}

bool takes_value(const OptionSpec& o) {
  return o.kind == OptionKind::Value || o.kind == OptionKind::List;
}

std::string joined(const std::vector<std::string>& words, std::string_view sep) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : std::string(sep)) + w;
  return out;
}

// What to offer after the option: its fixed set or suggestions.
const std::vector<std::string>& values_of(const OptionSpec& o) {
  return o.choices.empty() ? o.suggest : o.choices;
}

std::string bash_command(const CommandRow& row) {
  std::vector<std::string> flags;
  std::string cases, positional_words;
  bool positional_files = false;
  for (const OptionSpec& o : row.options) {
    if (positional(o)) {
      if (o.file) positional_files = true;
      positional_words = joined(values_of(o), " ");
      continue;
    }
    const std::vector<std::string> names = names_of(o);
    for (const std::string& n : names)
      if (n.starts_with("--")) flags.push_back(n);
    if (!takes_value(o)) continue;
    const std::string pattern = joined(names, "|");
    if (o.file)
      cases += "        " + pattern + ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
    else if (!values_of(o).empty())
      cases += "        " + pattern + ") COMPREPLY=($(compgen -W \"" + joined(values_of(o), " ") +
               "\" -- \"$cur\")); return ;;\n";
    else
      cases += "        " + pattern + ") return ;;\n";
  }
  flags.push_back("--help");
  flags.push_back("--version");
  std::string out = "    " + std::string(row.name) + ")\n";
  if (!cases.empty()) out += "      case $prev in\n" + cases + "      esac\n";
  out += "      flags=\"" + joined(flags, " ") + "\"\n";
  if (positional_files) out += "      operands=files\n";
  if (!positional_words.empty()) out += "      operands=\"" + positional_words + "\"\n";
  return out + "      ;;\n";
}

// Text for inside '...' in zsh: quotes closed and reopened, brackets escaped.
std::string zsh_text(std::string_view text, bool in_brackets) {
  std::string out;
  for (char c : text) {
    if (c == '\'')
      out += "'\"'\"'";
    else if (in_brackets && (c == '[' || c == ']'))
      out += std::string("\\") + c;
    else if (!in_brackets && c == ':')
      out += "\\:";
    else
      out += c;
  }
  return out;
}

std::string zsh_option(const OptionSpec& o) {
  const std::vector<std::string> names = names_of(o);
  std::string action;
  if (takes_value(o) || positional(o)) {
    std::string message = o.key();
    while (message.starts_with("-")) message.erase(0, 1);
    action = ":" + message + ":";
    if (o.file)
      action += "_files";
    else if (!values_of(o).empty())
      action += "(" + joined(values_of(o), " ") + ")";
  }
  if (o.kind == OptionKind::Positional) return "'1" + action + "'";
  if (o.kind == OptionKind::Positionals) return "'*" + action + "'";
  const std::string help = "[" + zsh_text(o.help, true) + "]";
  const std::string repeat = o.kind == OptionKind::List ? "*" : "";
  if (names.size() == 1) return "'" + repeat + names[0] + help + action + "'";
  return "'(" + joined(names, " ") + ")'" + repeat + "{" + joined(names, ",") + "}'" + help +
         action + "'";
}

}  // namespace

std::string bash_completion() {
  std::vector<std::string> commands;
  for (const CommandRow& row : command_table()) commands.emplace_back(row.name);
  std::string out =
      "# bash completion for eruplan (installed as bash-completion/completions/eruplan;\n"
      "# `eruplan completion bash` prints it). Made from eruplan's command table.\n"
      "_eruplan() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
      "  local commands=\"" +
      joined(commands, " ") +
      "\"\n"
      "  if [[ $COMP_CWORD -eq 1 ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  local flags=\"\" operands=\"\"\n"
      "  case ${COMP_WORDS[1]} in\n";
  for (const CommandRow& row : command_table()) out += bash_command(row);
  out +=
      "  esac\n"
      "  if [[ $cur == -* || -z $operands ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
      "  elif [[ $operands == files ]]; then\n"
      "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      "  else\n"
      "    COMPREPLY=($(compgen -W \"$operands\" -- \"$cur\"))\n"
      "  fi\n"
      "}\n"
      "complete -o default -F _eruplan eruplan\n";
  return out;
}

std::string zsh_completion() {
  std::string out =
      "#compdef eruplan\n"
      "# zsh completion for eruplan (installed under zsh/vendor-completions;\n"
      "# `eruplan completion zsh` prints it). Made from eruplan's command table.\n"
      "_eruplan() {\n"
      "  local -a commands\n"
      "  commands=(\n";
  for (const CommandRow& row : command_table())
    out += "    '" + std::string(row.name) + ":" + zsh_text(row.summary, false) + "'\n";
  out +=
      "  )\n"
      "  if (( CURRENT == 2 )); then\n"
      "    _describe -t commands 'eruplan command' commands\n"
      "    return\n"
      "  fi\n"
      "  case $words[2] in\n";
  for (const CommandRow& row : command_table()) {
    out += "    " + std::string(row.name) + ")\n      _arguments";
    for (const OptionSpec& o : row.options) out += " \\\n        " + zsh_option(o);
    out += " \\\n        '--help[print help]' \\\n        '--version[print the version]' ;;\n";
  }
  out +=
      "  esac\n"
      "}\n"
      "_eruplan \"$@\"\n";
  return out;
}

}  // namespace eruplan
