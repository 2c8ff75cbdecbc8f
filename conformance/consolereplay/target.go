package consolereplay

import "github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"

// ContextPath is the admin's context path in every recording.
const ContextPath = javaadmin.ContextPath

// AccessToken is the token the admins send to the fake executor.
const AccessToken = "replay_token"
