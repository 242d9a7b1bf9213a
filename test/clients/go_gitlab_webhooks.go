// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev) reads the reference server's webhook
// deliveries as a Go receiver would: gitlab.ParseWebhook on each body with the X-Gitlab-Event
// header's type, into go-gitlab's typed events. It reads the deliveries from a JSON file
// ([{"event": "...", "body": "<the raw body>"}]) and prints, for each, the Go type and the fields a
// receiver acts on; go-gitlab-webhooks.test.ts checks them. Any body go-gitlab cannot decode ends it.
// Usage: go_gitlab_webhooks <deliveries.json>
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/xanzy/go-gitlab"
)

type delivery struct {
	Event string `json:"event"`
	Body  string `json:"body"`
}

func main() {
	var deliveries []delivery
	file, err := os.Open(os.Args[1])
	if err == nil {
		err = json.NewDecoder(file).Decode(&deliveries)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := [][]any{}
	for _, d := range deliveries {
		event, err := gitlab.ParseWebhook(gitlab.EventType(d.Event), []byte(d.Body))
		if err != nil {
			fmt.Fprintln(os.Stderr, d.Event+":", err)
			os.Exit(1)
		}
		out = append(out, summary(event))
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

func summary(event any) []any {
	switch e := event.(type) {
	case *gitlab.IssueEvent:
		a := e.ObjectAttributes
		return []any{"IssueEvent", e.Project.PathWithNamespace, a.IID, a.Title, a.State, a.Action, e.User.Username, len(e.Labels)}
	case *gitlab.IssueCommentEvent:
		return []any{"IssueCommentEvent", e.Project.PathWithNamespace, e.Issue.IID, e.ObjectAttributes.Note, e.User.Username}
	case *gitlab.CommitCommentEvent:
		return []any{"CommitCommentEvent", e.Project.PathWithNamespace, e.Commit.ID == e.ObjectAttributes.CommitID, e.ObjectAttributes.Note}
	case *gitlab.PushEvent:
		return []any{"PushEvent", e.Project.PathWithNamespace, e.Ref, e.TotalCommitsCount, len(e.Commits), e.After == e.CheckoutSHA, e.UserUsername}
	case *gitlab.TagEvent:
		return []any{"TagEvent", e.Project.PathWithNamespace, e.Ref, e.After == e.CheckoutSHA}
	case *gitlab.PipelineEvent:
		a := e.ObjectAttributes
		return []any{"PipelineEvent", e.Project.PathWithNamespace, a.Ref, a.Status, a.Source, len(e.Builds), e.User.Username}
	case *gitlab.JobEvent:
		return []any{"JobEvent", e.ProjectName, e.Ref, e.BuildName, e.BuildStage, e.BuildStatus, e.PipelineID > 0, e.User.Username}
	case *gitlab.DeploymentEvent:
		return []any{"DeploymentEvent", e.Project.PathWithNamespace, e.Environment, e.Status, e.DeployableID > 0, len(e.ShortSHA), e.User.Username}
	}
	return []any{fmt.Sprintf("%T", event)}
}
