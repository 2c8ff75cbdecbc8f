package openapi

// route is one endpoint: its method and path under <ctx>/openapi/v1 as the
// document writes them, and the document's operationId.
type route struct {
	method string
	path   string
	op     string
	public bool // served without a token (the document)
	serve  func(a *API, c *call) error
}

// routeTable lists every endpoint. The document must describe exactly
// these (TestDocumentMatchesRoutes).
func routeTable() []route {
	return []route{
		{"GET", "/openapi.json", "getDocument", true, (*API).getDocument},

		{"GET", "/groups", "listGroups", false, (*API).listGroups},
		{"POST", "/groups", "createGroup", false, (*API).createGroup},
		{"GET", "/groups/{id}", "getGroup", false, (*API).getGroup},
		{"PUT", "/groups/{id}", "updateGroup", false, (*API).updateGroup},
		{"DELETE", "/groups/{id}", "deleteGroup", false, (*API).deleteGroup},

		{"GET", "/jobs", "listJobs", false, (*API).listJobs},
		{"POST", "/jobs", "createJob", false, (*API).createJob},
		{"PUT", "/jobs/apply", "applyJob", false, (*API).applyJob},
		{"GET", "/jobs/{id}", "getJob", false, (*API).getJob},
		{"PUT", "/jobs/{id}", "updateJob", false, (*API).updateJob},
		{"DELETE", "/jobs/{id}", "deleteJob", false, (*API).deleteJob},
		{"POST", "/jobs/{id}/start", "startJob", false, (*API).startJob},
		{"POST", "/jobs/{id}/stop", "stopJob", false, (*API).stopJob},
		{"POST", "/jobs/{id}/trigger", "triggerJob", false, (*API).triggerJob},

		{"GET", "/logs", "listLogs", false, (*API).listLogs},
		{"GET", "/logs/{id}", "getLog", false, (*API).getLog},
		{"GET", "/logs/{id}/text", "getLogText", false, (*API).getLogText},
		{"POST", "/logs/{id}/kill", "killLog", false, (*API).killLog},

		{"GET", "/registry", "listRegistry", false, (*API).listRegistry},

		{"GET", "/export", "exportJobs", false, (*API).exportJobs},
		{"POST", "/import", "importJobs", false, (*API).importJobs},
	}
}
