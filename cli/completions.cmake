# Writes the completion scripts the built binary makes from its command table:
#   cmake -DBIN=path/to/eruplan -DOUT=dir -P completions.cmake
file(MAKE_DIRECTORY "${OUT}")
foreach(shell bash zsh)
  if(shell STREQUAL "bash")
    set(file "${OUT}/eruplan.bash")
  else()
    set(file "${OUT}/_eruplan")
  endif()
  execute_process(COMMAND "${BIN}" completion ${shell} OUTPUT_FILE "${file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${BIN} completion ${shell} failed (${rc})")
  endif()
endforeach()
