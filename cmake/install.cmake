# `cmake --install`: the example config, the systemd unit and its sysusers entry beside the
# binary (service/cli/CMakeLists.txt installs it to bin/), at the standard paths under the prefix.
include(GNUInstallDirs)

# <prefix>/share/outpost/config.example.yml: the operator copies it to /etc/outpost/config.yml.
install(FILES ${PROJECT_SOURCE_DIR}/config/config.example.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/outpost)

# <prefix>/lib/sysusers.d/outpost.conf: `systemd-sysusers` creates the dedicated user from it.
install(FILES ${PROJECT_SOURCE_DIR}/deploy/outpost.sysusers.conf
        DESTINATION lib/sysusers.d RENAME outpost.conf)

# <prefix>/lib/systemd/system/outpost.service (where Debian reads units shipped with software).
# deploy/outpost.service names /usr/local/bin/outpost; the copy names the binary under the prefix
# chosen at install time (`cmake --install build --prefix /usr` gives /usr/bin/outpost).
install(CODE "
    set(unit_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\")
    file(READ \"${PROJECT_SOURCE_DIR}/deploy/outpost.service\" unit)
    string(REPLACE \"/usr/local/bin/outpost\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/outpost\" unit \"\${unit}\")
    message(STATUS \"Installing: \${unit_dir}/outpost.service\")
    file(MAKE_DIRECTORY \"\${unit_dir}\")
    file(WRITE \"\${unit_dir}/outpost.service\" \"\${unit}\")
")
