# bash completion for eruplan (installed as bash-completion/completions/eruplan;
# `eruplan completion bash` prints it). Made from eruplan's command table.
_eruplan() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="capacity plan validate apply share realloc compare grow drain diff snapshot test schema completion"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  local flags="" operands=""
  case ${COMP_WORDS[1]} in
    capacity)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --plans) COMPREPLY=($(compgen -W "all assigned none" -- "$cur")); return ;;
        --app) return ;;
        --count) return ;;
        --replicas) return ;;
        --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --node) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
      esac
      flags="--nodes --request --input-format --output --plans --app --count --replicas --strategy --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node --exclude --jobs --strict --lenient --explain --all-nodes --nodes-format --pods --app-label --priority-classes --help --version"
      ;;
    plan)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --plans) COMPREPLY=($(compgen -W "all assigned none" -- "$cur")); return ;;
        --app) return ;;
        --count) return ;;
        --replicas) return ;;
        --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --node) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --save-inventory) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --units) COMPREPLY=($(compgen -W "bytes human" -- "$cur")); return ;;
        --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --pdbs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --queue-sort) COMPREPLY=($(compgen -W "priority qos" -- "$cur")); return ;;
        --tie-break) return ;;
      esac
      flags="--nodes --request --input-format --output --plans --app --count --replicas --strategy --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node --exclude --jobs --strict --lenient --explain --all-nodes --nodes-format --pods --app-label --priority-classes --atomic --save-inventory --units --report --preempt --pdbs --queue-sort --tie-break --help --version"
      ;;
    validate)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --app) return ;;
        --count) return ;;
        --replicas) return ;;
        --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --node) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
      esac
      flags="--nodes --request --input-format --output --app --count --replicas --strategy --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node --exclude --jobs --strict --lenient --nodes-format --pods --app-label --priority-classes --help --version"
      ;;
    apply)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        --plans) COMPREPLY=($(compgen -W "all assigned none" -- "$cur")); return ;;
        --app) return ;;
        --count) return ;;
        --replicas) return ;;
        --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --node) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --save-inventory) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --units) COMPREPLY=($(compgen -W "bytes human" -- "$cur")); return ;;
        --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --pdbs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --queue-sort) COMPREPLY=($(compgen -W "priority qos" -- "$cur")); return ;;
        --tie-break) return ;;
      esac
      flags="--nodes --request --input-format --output --plans --app --count --replicas --strategy --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node --exclude --jobs --strict --lenient --explain --all-nodes --nodes-format --pods --app-label --priority-classes --atomic --save-inventory --units --report --preempt --pdbs --queue-sort --tie-break --help --version"
      ;;
    share)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request|--apps) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --jobs) return ;;
        --save-inventory) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --units) COMPREPLY=($(compgen -W "bytes human" -- "$cur")); return ;;
        --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --model) COMPREPLY=($(compgen -W "drf mesos" -- "$cur")); return ;;
        --seed) return ;;
        --cycles) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
      esac
      flags="--strict --lenient --nodes --request --apps --input-format --output --jobs --save-inventory --units --report --model --seed --cycles --nodes-format --pods --app-label --help --version"
      ;;
    realloc)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --workload) return ;;
        --app) return ;;
        --cpu) return ;;
        --cpu-limit) return ;;
        --memory) return ;;
        --memory-limit) return ;;
        --cpu-bind) COMPREPLY=($(compgen -W "keep true false" -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --save-inventory) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --units) COMPREPLY=($(compgen -W "bytes human" -- "$cur")); return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
      esac
      flags="--strict --lenient --nodes --request --workload --app --cpu --cpu-limit --memory --memory-limit --cpu-bind --input-format --output --atomic --save-inventory --units --nodes-format --pods --app-label --help --version"
      ;;
    compare)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --app) return ;;
        --count) return ;;
        --replicas) return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --node) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --strategies) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
      esac
      flags="--nodes --request --input-format --output --app --count --replicas --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node --exclude --jobs --strict --lenient --nodes-format --pods --app-label --priority-classes --report --strategies --help --version"
      ;;
    grow)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --plans) COMPREPLY=($(compgen -W "all assigned none" -- "$cur")); return ;;
        --app) return ;;
        --count) return ;;
        --replicas) return ;;
        --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --node) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --template) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --like) return ;;
        --cost) return ;;
        --expander) COMPREPLY=($(compgen -W "least-waste most-pods price priority" -- "$cur")); return ;;
        --daemonsets) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --max) return ;;
        --report) COMPREPLY=($(compgen -f -- "$cur")); return ;;
      esac
      flags="--nodes --request --input-format --output --plans --app --count --replicas --strategy --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --node --exclude --jobs --strict --lenient --explain --all-nodes --nodes-format --pods --app-label --priority-classes --template --like --cost --expander --mix --daemonsets --max --report --help --version"
      ;;
    drain)
      case $prev in
        -n|--nodes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -r|--request) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
        --plans) COMPREPLY=($(compgen -W "all assigned none" -- "$cur")); return ;;
        --app) return ;;
        --replicas) return ;;
        --strategy) COMPREPLY=($(compgen -W "auto fill each global drained score" -- "$cur")); return ;;
        --scoring) COMPREPLY=($(compgen -W "least_allocated most_allocated requested_to_capacity_ratio" -- "$cur")); return ;;
        --nodes-limit) return ;;
        --cpu) return ;;
        --memory) return ;;
        --storage) return ;;
        --volume) return ;;
        --label) return ;;
        --exclude) return ;;
        --jobs) return ;;
        --nodes-format) COMPREPLY=($(compgen -W "auto eruplan kubernetes" -- "$cur")); return ;;
        --pods) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --app-label) return ;;
        --priority-classes) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --node) return ;;
      esac
      flags="--nodes --request --input-format --output --plans --app --replicas --strategy --scoring --nodes-limit --cpu --cpu-bind --memory --storage --volume --label --exclude --jobs --strict --lenient --explain --all-nodes --nodes-format --pods --app-label --priority-classes --node --each-node --help --version"
      ;;
    diff)
      case $prev in
        --input-format) COMPREPLY=($(compgen -W "json yaml" -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
      esac
      flags="--input-format --output --exit-code --strict --lenient --help --version"
      operands=files
      ;;
    snapshot)
      case $prev in
        -o|--output-dir) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --context) return ;;
        --kubeconfig) COMPREPLY=($(compgen -f -- "$cur")); return ;;
      esac
      flags="--output-dir --context --kubeconfig --help --version"
      ;;
    test)
      case $prev in
        --print-expect) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --filter) return ;;
        -o|--output) COMPREPLY=($(compgen -W "text json junit" -- "$cur")); return ;;
      esac
      flags="--print-expect --filter --output --help --version"
      operands=files
      ;;
    schema)
      flags="--help --version"
      operands="inventory request share realloc case template"
      ;;
    completion)
      flags="--help --version"
      operands="bash zsh"
      ;;
  esac
  if [[ $cur == -* || -z $operands ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ $operands == files ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
  fi
}
complete -o default -F _eruplan eruplan
