# bash completion for eruplan (installed as bash-completion/completions/eruplan;
# `eruplan completion bash` prints it).
_eruplan() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="capacity plan apply validate test completion share realloc compare grow drain"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  local command=${COMP_WORDS[1]}
  case $prev in
    -n|--nodes|-r|--request|--pods|--save-inventory|--template|--report)
      COMPREPLY=($(compgen -f -- "$cur"))
      return ;;
    -o|--output)
      if [[ $command == test ]]; then
        COMPREPLY=($(compgen -W "text json junit" -- "$cur"))
      elif [[ $command == apply ]]; then
        COMPREPLY=($(compgen -W "json yaml" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "table json yaml" -- "$cur"))
      fi
      return ;;
    --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
    --model) COMPREPLY=($(compgen -W "drf mesos" -- "$cur")); return ;;
    --seed) COMPREPLY=($(compgen -W "0 none" -- "$cur")); return ;;
    --plans) COMPREPLY=($(compgen -W "all assigned none" -- "$cur")); return ;;
    --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
    --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
    --scoring)
      COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur"))
      return ;;
    --print-expect) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  case $command in
    completion)
      COMPREPLY=($(compgen -W "bash zsh" -- "$cur")) ;;
    test)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--filter --output --print-expect --help" -- "$cur"))
      else
        COMPREPLY=($(compgen -f -- "$cur"))
      fi ;;
    *)
      local extra=""  # the options only some commands take
      case $command in
        plan|apply) extra="--atomic --save-inventory --report" ;;
        share) extra="--save-inventory --report --model --seed --cycles" ;;
        realloc) extra="--atomic --save-inventory" ;;
        compare) extra="--strategies --report" ;;
        grow) extra="--template --max" ;;
        drain) extra="--each-node" ;;
      esac
      COMPREPLY=($(compgen -W "--nodes --request --output --input-format --plans --app --count
        --strategy --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node
        --exclude --scoring --nodes-format --pods --app-label --jobs --strict --explain --all-nodes
        $extra --help --version" -- "$cur")) ;;
  esac
}
complete -o default -F _eruplan eruplan
