// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev) works the reference server as a Go user's
// suite would: as an admin it builds a world (a user with a token, a group, a project, labels, a
// milestone, issues, notes, time tracking), pages through issues by resp.NextPage, edits and closes
// one, works the repository (a file, a branch, a tag, commits, compare) and CI (a trigger, its
// pipeline and jobs, variables), uses go-gitlab's own habits (null expires_at and link_type, a
// token's expiry as a time, a share, commit actions, pipeline variables, users by page), reads as
// go-gitlab encodes queries (iids[], not[...], dates, a HEAD's X-Gitlab-* headers, tree pages, Sudo,
// keyset pages by the Link header), and is refused (404, 403, 400, 409). It prints JSON;
// go-gitlab.test.ts checks it. Usage: go_gitlab_world <url> <admin token>
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/xanzy/go-gitlab"
)

func must[T any](v T, _ *gitlab.Response, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return v
}

// refusal is what go-gitlab makes of an error answer: the status and ErrorResponse.Message.
func refusal(_ any, _ *gitlab.Response, err error) []any {
	var e *gitlab.ErrorResponse
	if !errors.As(err, &e) {
		fmt.Fprintln(os.Stderr, "expected an *gitlab.ErrorResponse, got", err)
		os.Exit(1)
	}
	return []any{e.Response.StatusCode, e.Message}
}

// refusalOrUser is the user's name, or what go-gitlab makes of the refusal.
func refusalOrUser(u *gitlab.User, resp *gitlab.Response, err error) any {
	if err != nil {
		return refusal(u, resp, err)
	}
	return u.Username
}

func client(url, token string) *gitlab.Client {
	c, err := gitlab.NewClient(token, gitlab.WithBaseURL(url))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return c
}

func titles(issues []*gitlab.Issue) []string {
	out := []string{}
	for _, i := range issues {
		out = append(out, i.Title)
	}
	return out
}

func main() {
	url, token := os.Args[1], os.Args[2]
	admin := client(url, token)
	out := map[string]any{}

	// A user with a personal access token, a group with the user as reporter, a project in it.
	user := must(admin.Users.CreateUser(&gitlab.CreateUserOptions{
		Email: gitlab.String("rae@example.com"), Username: gitlab.String("rae"), Name: gitlab.String("Rae"),
		Password: gitlab.String("a-long-password-1"), SkipConfirmation: gitlab.Bool(true),
	}))
	pat := must(admin.Users.CreatePersonalAccessToken(user.ID, &gitlab.CreatePersonalAccessTokenOptions{
		Name: gitlab.String("suite"), Scopes: &[]string{"api"},
	}))
	group := must(admin.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name: gitlab.String("Go Team"), Path: gitlab.String("go-team"), Visibility: gitlab.Visibility(gitlab.PrivateVisibility),
	}))
	member := must(admin.GroupMembers.AddGroupMember(group.ID, &gitlab.AddGroupMemberOptions{
		UserID: gitlab.Int(user.ID), AccessLevel: gitlab.AccessLevel(gitlab.ReporterPermissions),
	}))
	project := must(admin.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name: gitlab.String("Gopher"), Path: gitlab.String("gopher"), NamespaceID: gitlab.Int(group.ID),
		InitializeWithReadme: gitlab.Bool(true),
	}))
	pid := project.PathWithNamespace
	out["world"] = map[string]any{
		"user": user.Username, "token": []any{pat.Name, pat.Scopes, pat.Active, pat.Token != ""},
		"member":  []any{member.Username, int(member.AccessLevel)},
		"project": []any{pid, project.Visibility, project.DefaultBranch},
	}

	// Labels, a milestone, issues under them, notes, time tracking.
	bug := must(admin.Labels.CreateLabel(pid, &gitlab.CreateLabelOptions{Name: gitlab.String("bug"), Color: gitlab.String("#d9534f")}))
	must(admin.Labels.CreateLabel(pid, &gitlab.CreateLabelOptions{Name: gitlab.String("ux"), Color: gitlab.String("#428BCA")}))
	milestone := must(admin.Milestones.CreateMilestone(pid, &gitlab.CreateMilestoneOptions{Title: gitlab.String("Go 1")}))
	for n := 1; n <= 5; n++ {
		must(admin.Issues.CreateIssue(pid, &gitlab.CreateIssueOptions{
			Title: gitlab.String(fmt.Sprintf("Issue %d", n)), Labels: &gitlab.Labels{"bug", "ux"}, MilestoneID: gitlab.Int(milestone.ID),
		}))
	}
	first := must(admin.Issues.GetIssue(pid, 1))
	must(admin.Notes.CreateIssueNote(pid, 1, &gitlab.CreateIssueNoteOptions{Body: gitlab.String("First note")}))
	must(admin.Notes.CreateIssueNote(pid, 1, &gitlab.CreateIssueNoteOptions{Body: gitlab.String("Second note")}))
	notes := []string{}
	for _, n := range must(admin.Notes.ListIssueNotes(pid, 1, &gitlab.ListIssueNotesOptions{
		OrderBy: gitlab.String("created_at"), Sort: gitlab.String("asc"),
	})) {
		notes = append(notes, n.Body)
	}
	must(admin.Issues.SetTimeEstimate(pid, 1, &gitlab.SetTimeEstimateOptions{Duration: gitlab.String("3h")}))
	must(admin.Issues.AddSpentTime(pid, 1, &gitlab.AddSpentTimeOptions{Duration: gitlab.String("1h30m")}))
	spent := must(admin.Issues.GetTimeSpent(pid, 1))
	out["issues"] = map[string]any{
		"label":     []any{bug.Name, bug.Color},
		"milestone": []any{milestone.IID, milestone.Title, milestone.State},
		"first":     []any{first.IID, first.Labels, first.Milestone.Title, first.State},
		"notes":     notes,
		"time":      []any{spent.HumanTimeEstimate, spent.HumanTotalTimeSpent, spent.TimeEstimate, spent.TotalTimeSpent},
	}

	// Offset pages of two, followed by resp.NextPage as go-gitlab's users do. By title: issues made in the
	// same millisecond tie on created_at, and GitLab breaks ties by id descending.
	pages := []any{}
	opt := &gitlab.ListProjectIssuesOptions{
		ListOptions: gitlab.ListOptions{PerPage: 2}, OrderBy: gitlab.String("title"), Sort: gitlab.String("asc"),
	}
	for {
		issues, resp, err := admin.Issues.ListProjectIssues(pid, opt)
		must(issues, resp, err)
		pages = append(pages, map[string]any{
			"titles": titles(issues), "total": resp.TotalItems, "pages": resp.TotalPages, "per_page": resp.ItemsPerPage,
			"current": resp.CurrentPage, "next": resp.NextPage, "previous": resp.PreviousPage,
		})
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	out["pages"] = pages

	// Edit and close an issue.
	edited := must(admin.Issues.UpdateIssue(pid, 2, &gitlab.UpdateIssueOptions{
		Title: gitlab.String("Issue 2, edited"), RemoveLabels: &gitlab.Labels{"ux"}, StateEvent: gitlab.String("close"),
	}))
	closed := must(admin.Issues.ListProjectIssues(pid, &gitlab.ListProjectIssuesOptions{State: gitlab.String("closed")}))
	out["edited"] = map[string]any{
		"issue":  []any{edited.Title, edited.Labels, edited.State, edited.ClosedAt != nil},
		"closed": titles(closed),
	}

	// The repository: a file, a branch, a tag, commits, compare.
	ci := "build:\n  script: [make]\ntest:\n  stage: test\n  script: [make test]\n"
	file := must(admin.RepositoryFiles.CreateFile(pid, ".gitlab-ci.yml", &gitlab.CreateFileOptions{
		Branch: gitlab.String("main"), Content: gitlab.String(ci), CommitMessage: gitlab.String("Add CI"),
	}))
	branch := must(admin.Branches.CreateBranch(pid, &gitlab.CreateBranchOptions{Branch: gitlab.String("feature"), Ref: gitlab.String("main")}))
	must(admin.RepositoryFiles.CreateFile(pid, "docs/go.md", &gitlab.CreateFileOptions{
		Branch: gitlab.String("feature"), Content: gitlab.String("go\n"), CommitMessage: gitlab.String("Add docs"),
	}))
	tag := must(admin.Tags.CreateTag(pid, &gitlab.CreateTagOptions{
		TagName: gitlab.String("v1.0"), Ref: gitlab.String("main"), Message: gitlab.String("First release"),
	}))
	commits := []string{}
	for _, c := range must(admin.Commits.ListCommits(pid, &gitlab.ListCommitsOptions{RefName: gitlab.String("feature")})) {
		commits = append(commits, c.Title)
	}
	compare := must(admin.Repositories.Compare(pid, &gitlab.CompareOptions{From: gitlab.String("main"), To: gitlab.String("feature")}))
	compared := []string{}
	for _, c := range compare.Commits {
		compared = append(compared, c.Title)
	}
	diffs := []any{}
	for _, d := range compare.Diffs {
		diffs = append(diffs, []any{d.NewPath, d.NewFile, d.Diff})
	}
	out["repository"] = map[string]any{
		"file":    []any{file.FilePath, file.Branch},
		"branch":  []any{branch.Name, branch.Commit.Title, branch.Protected},
		"tag":     []any{tag.Name, tag.Message, tag.Commit.Title},
		"commits": commits,
		"compare": map[string]any{"commits": compared, "diffs": diffs, "commit": compare.Commit.Title},
	}

	// CI: project variables, a trigger token, a pipeline it runs, and its jobs.
	variable := must(admin.ProjectVariables.CreateVariable(pid, &gitlab.CreateProjectVariableOptions{
		Key: gitlab.String("DEPLOY_TARGET"), Value: gitlab.String("staging"),
	}))
	must(admin.ProjectVariables.UpdateVariable(pid, "DEPLOY_TARGET", &gitlab.UpdateProjectVariableOptions{Value: gitlab.String("production")}))
	read := must(admin.ProjectVariables.GetVariable(pid, "DEPLOY_TARGET", nil))
	keys := []string{}
	for _, v := range must(admin.ProjectVariables.ListVariables(pid, nil)) {
		keys = append(keys, v.Key)
	}
	trigger := must(admin.PipelineTriggers.AddPipelineTrigger(pid, &gitlab.AddPipelineTriggerOptions{Description: gitlab.String("go suite")}))
	triggered := must(admin.PipelineTriggers.RunPipelineTrigger(pid, &gitlab.RunPipelineTriggerOptions{
		Ref: gitlab.String("main"), Token: gitlab.String(trigger.Token), Variables: map[string]string{"FROM_GO": "yes"},
	}))
	pipeline := must(admin.Pipelines.GetPipeline(pid, triggered.ID))
	jobs := []any{}
	for _, j := range must(admin.Jobs.ListPipelineJobs(pid, pipeline.ID, &gitlab.ListJobsOptions{})) {
		jobs = append(jobs, []any{j.Name, j.Stage, j.Pipeline.ID == pipeline.ID})
	}
	out["ci"] = map[string]any{
		"variable": []any{variable.Key, variable.Value, string(variable.VariableType), variable.Protected, variable.Masked, variable.EnvironmentScope},
		"read":     read.Value,
		"keys":     keys,
		"trigger":  []any{trigger.Description, trigger.Token != ""},
		"pipeline": []any{pipeline.Ref, pipeline.Source, pipeline.ID == triggered.ID, pipeline.SHA == tag.Commit.ID},
		"jobs":     jobs,
	}

	// go-gitlab's own habits: members and shares send `"expires_at": null` when unset, pipelines
	// take variables as a list, commits take actions, users page like issues.
	partners := must(admin.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: gitlab.String("Partners"), Path: gitlab.String("partners")}))
	if _, err := admin.Projects.ShareProjectWithGroup(pid, &gitlab.ShareWithGroupOptions{
		GroupID: gitlab.Int(partners.ID), GroupAccess: gitlab.AccessLevel(gitlab.DeveloperPermissions),
	}); err != nil {
		must[any](nil, nil, err)
	}
	shared := []any{}
	for _, g := range must(admin.Projects.GetProject(pid, nil)).SharedWithGroups {
		shared = append(shared, []any{g.GroupName, g.GroupAccessLevel})
	}
	expiring := must(admin.GroupMembers.EditGroupMember(group.ID, user.ID, &gitlab.EditGroupMemberOptions{
		AccessLevel: gitlab.AccessLevel(gitlab.ReporterPermissions), ExpiresAt: gitlab.String("2099-01-01"),
	}))
	kept := must(admin.GroupMembers.EditGroupMember(group.ID, user.ID, &gitlab.EditGroupMemberOptions{
		AccessLevel: gitlab.AccessLevel(gitlab.ReporterPermissions),
	}))
	commit := must(admin.Commits.CreateCommit(pid, &gitlab.CreateCommitOptions{
		Branch: gitlab.String("main"), CommitMessage: gitlab.String("Two actions"),
		Actions: []*gitlab.CommitActionOptions{
			{Action: gitlab.FileAction(gitlab.FileCreate), FilePath: gitlab.String("Makefile"), Content: gitlab.String("all:\n")},
			{Action: gitlab.FileAction(gitlab.FileUpdate), FilePath: gitlab.String("README.md"), Content: gitlab.String("# Gopher\n")},
		},
	}))
	protected := must(admin.ProtectedBranches.ProtectRepositoryBranches(pid, &gitlab.ProtectRepositoryBranchesOptions{
		Name: gitlab.String("feature"), PushAccessLevel: gitlab.AccessLevel(gitlab.MaintainerPermissions),
	}))
	created := must(admin.Pipelines.CreatePipeline(pid, &gitlab.CreatePipelineOptions{
		Ref: gitlab.String("main"), Variables: &[]*gitlab.PipelineVariableOptions{{Key: gitlab.String("FROM_GO"), Value: gitlab.String("yes")}},
	}))
	pipelineVariables := []any{}
	for _, v := range must(admin.Pipelines.GetPipelineVariables(pid, created.ID)) {
		pipelineVariables = append(pipelineVariables, []any{v.Key, v.Value, string(v.VariableType)})
	}
	link := must(admin.IssueLinks.CreateIssueLink(pid, 1, &gitlab.CreateIssueLinkOptions{
		TargetProjectID: gitlab.String(pid), TargetIssueIID: gitlab.String("3"),
	}))
	// CreateImpersonationTokenOptions.ExpiresAt is a time.Time, sent as a date-time: its date is kept.
	expiry := time.Now().UTC().AddDate(0, 0, 30)
	impersonation := must(admin.Users.CreateImpersonationToken(user.ID, &gitlab.CreateImpersonationTokenOptions{
		Name: gitlab.String("go-imp"), Scopes: &[]string{"read_api"}, ExpiresAt: &expiry,
	}))
	users := []any{}
	for page := 1; page != 0; {
		list, resp, err := admin.Users.ListUsers(&gitlab.ListUsersOptions{ListOptions: gitlab.ListOptions{PerPage: 1, Page: page}})
		must(list, resp, err)
		for _, u := range list {
			users = append(users, []any{u.Username, resp.CurrentPage, resp.NextPage, resp.TotalItems})
		}
		page = resp.NextPage
	}
	out["habits"] = map[string]any{
		"shared":        shared,
		"link":          []any{link.SourceIssue.IID, link.TargetIssue.IID, link.LinkType},
		"impersonation": []any{impersonation.Name, impersonation.Active, impersonation.ExpiresAt.String() == expiry.Format("2006-01-02")},
		"expiring":      []any{expiring.ExpiresAt.String(), kept.ExpiresAt == nil, int(kept.AccessLevel)},
		"commit":        []any{commit.Title, commit.Stats.Additions, commit.Stats.Deletions},
		"protected":     []any{protected.Name, int(protected.PushAccessLevels[0].AccessLevel), int(protected.MergeAccessLevels[0].AccessLevel)},
		"pipeline":      []any{created.Ref, created.Source, pipelineVariables},
		"users":         users,
	}

	reporter := client(url, pat.Token)

	// Reads as go-gitlab encodes them: iids[] and comma labels, not[...] filters, dates, HEAD headers.
	start, due := gitlab.ISOTime(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)), gitlab.ISOTime(time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC))
	dated := must(admin.Milestones.CreateMilestone(pid, &gitlab.CreateMilestoneOptions{
		Title: gitlab.String("Go 2"), StartDate: &start, DueDate: &due,
	}))
	assigned := must(admin.Issues.CreateIssue(pid, &gitlab.CreateIssueOptions{
		Title: gitlab.String("Assigned"), AssigneeIDs: &[]int{user.ID}, DueDate: &due, Confidential: gitlab.Bool(true),
		MilestoneID: gitlab.Int(dated.ID),
	}))
	assignees := []string{}
	for _, a := range assigned.Assignees {
		assignees = append(assignees, a.Username)
	}
	filtered := func(o *gitlab.ListProjectIssuesOptions) []string {
		o.OrderBy, o.Sort = gitlab.String("title"), gitlab.String("asc")
		return titles(must(admin.Issues.ListProjectIssues(pid, o)))
	}
	meta := must(admin.RepositoryFiles.GetFileMetaData(pid, "Makefile", &gitlab.GetFileMetaDataOptions{Ref: gitlab.String("main")}))
	raw := must(admin.RepositoryFiles.GetRawFile(pid, "Makefile", &gitlab.GetRawFileOptions{Ref: gitlab.String("main")}))
	tree := []any{}
	treeOpt := &gitlab.ListTreeOptions{ListOptions: gitlab.ListOptions{PerPage: 2}, Ref: gitlab.String("feature"), Recursive: gitlab.Bool(true)}
	for {
		nodes, resp, err := admin.Repositories.ListTree(pid, treeOpt)
		must(nodes, resp, err)
		for _, n := range nodes {
			tree = append(tree, []any{n.Path, n.Type, resp.CurrentPage})
		}
		if resp.NextPage == 0 {
			break
		}
		treeOpt.Page = resp.NextPage
	}
	everywhere := []string{}
	for _, c := range must(admin.Commits.ListCommits(pid, &gitlab.ListCommitsOptions{All: gitlab.Bool(true), Path: gitlab.String("docs")})) {
		everywhere = append(everywhere, c.Title)
	}
	searched := []string{}
	for _, b := range must(admin.Branches.ListBranches(pid, &gitlab.ListBranchesOptions{Search: gitlab.String("^fea")})) {
		searched = append(searched, b.Name)
	}
	me := must(reporter.Users.CurrentUser())
	sudo := []any{
		refusalOrUser(admin.Users.CurrentUser(gitlab.WithSudo("rae"))),
		refusalOrUser(reporter.Users.CurrentUser(gitlab.WithSudo("root"))),
		refusalOrUser(admin.Users.CurrentUser(gitlab.WithSudo("nobody"))),
	}

	// go-gitlab 0.73 has no keyset options: its users add the query themselves and follow the Link header.
	for _, path := range []string{"alpha", "beta"} {
		must(admin.Projects.CreateProject(&gitlab.CreateProjectOptions{Path: gitlab.String(path), NamespaceID: gitlab.Int(partners.ID)}))
	}
	keyset := []any{}
	next := ""
	for {
		projects, resp, err := admin.Projects.ListProjects(&gitlab.ListProjectsOptions{}, func(r *retryablehttp.Request) error {
			if next != "" {
				u, err := r.URL.Parse(next)
				r.URL = u
				return err
			}
			q := r.URL.Query()
			q.Set("pagination", "keyset")
			q.Set("order_by", "id")
			q.Set("sort", "asc")
			q.Set("per_page", "1")
			r.URL.RawQuery = q.Encode()
			return nil
		})
		must(projects, resp, err)
		for _, p := range projects {
			keyset = append(keyset, []any{p.PathWithNamespace, resp.Header.Get("X-Total") == "", resp.Header.Get("X-Next-Page") == ""})
		}
		next = ""
		for _, link := range strings.Split(resp.Header.Get("Link"), ",") {
			if parts := strings.Split(link, ";"); len(parts) == 2 && strings.TrimSpace(parts[1]) == `rel="next"` {
				next = strings.Trim(strings.TrimSpace(parts[0]), "<>")
			}
		}
		if next == "" {
			break
		}
	}
	// What go-gitlab reads and writes beside: contributors, commit comments, merged branches.
	contributors := []any{}
	for _, c := range must(admin.Repositories.Contributors(pid, &gitlab.ListContributorsOptions{OrderBy: gitlab.String("name")})) {
		contributors = append(contributors, []any{c.Name, c.Commits, c.Additions})
	}
	must(reporter.Commits.PostCommitComment(pid, "main", &gitlab.PostCommitCommentOptions{Note: gitlab.String("Looks good")}))
	must(admin.Commits.PostCommitComment(pid, "main", &gitlab.PostCommitCommentOptions{
		Note: gitlab.String("On all:"), Path: gitlab.String("Makefile"), Line: gitlab.Int(1), LineType: gitlab.String("new"),
	}))
	comments := []any{}
	for _, c := range must(admin.Commits.GetCommitComments(pid, "main", nil)) {
		comments = append(comments, []any{c.Note, c.Path, c.Line, c.LineType, c.Author.Username})
	}
	must(admin.Branches.CreateBranch(pid, &gitlab.CreateBranchOptions{Branch: gitlab.String("done"), Ref: gitlab.String("main")}))
	cleaned, err := admin.Branches.DeleteMergedBranches(pid)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	left := []string{}
	for _, b := range must(admin.Branches.ListBranches(pid, nil)) {
		left = append(left, b.Name)
	}
	out["repository_extras"] = map[string]any{
		"contributors": contributors,
		"comments":     comments,
		"merged":       []any{cleaned.StatusCode, left},
	}

	out["reads"] = map[string]any{
		"milestone":     []any{dated.StartDate.String(), dated.DueDate.String()},
		"assigned":      []any{assignees, assigned.DueDate.String(), assigned.Confidential, assigned.Milestone.Title},
		"iids":          filtered(&gitlab.ListProjectIssuesOptions{IIDs: &[]int{1, 3}}),
		"labels":        filtered(&gitlab.ListProjectIssuesOptions{Labels: &gitlab.Labels{"bug", "ux"}}),
		"not_labels":    filtered(&gitlab.ListProjectIssuesOptions{NotLabels: &gitlab.Labels{"ux"}, State: gitlab.String("all")}),
		"search":        filtered(&gitlab.ListProjectIssuesOptions{Search: gitlab.String("edited"), State: gitlab.String("all")}),
		"assignee":      filtered(&gitlab.ListProjectIssuesOptions{AssigneeUsername: gitlab.String("rae")}),
		"not_milestone": filtered(&gitlab.ListProjectIssuesOptions{NotMilestone: gitlab.String("Go 1")}),
		"created_after": len(must(admin.Issues.ListProjectIssues(pid, &gitlab.ListProjectIssuesOptions{
			CreatedAfter: gitlab.Time(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)), State: gitlab.String("all"),
		}))),
		"meta": []any{meta.FileName, meta.FilePath, meta.Size, meta.Encoding, meta.Ref, meta.ExecuteFilemode,
			meta.CommitID == commit.ID, meta.LastCommitID == commit.ID, len(meta.BlobID), len(meta.SHA256)},
		"raw":         string(raw),
		"tree":        tree,
		"branches":    searched,
		"all_commits": everywhere,
		"me":          []any{me.Username, me.IsAdmin},
		"sudo":        sudo,
		"keyset":      keyset,
	}

	// The Events API: the pushes the world made, oldest first, and the admin's own issue events.
	pushedType, issueType := gitlab.PushedEventType, gitlab.IssueEventTargetType
	pushes := []any{}
	for _, e := range must(admin.Events.ListProjectVisibleEvents(pid, &gitlab.ListContributionEventsOptions{
		Action: &pushedType, Sort: gitlab.String("asc"), ListOptions: gitlab.ListOptions{PerPage: 100},
	})) {
		pushes = append(pushes, []any{e.ActionName, e.PushData.RefType, e.PushData.Ref, e.PushData.CommitCount, e.PushData.CommitTitle})
	}
	issueEvents := map[string]int{}
	for _, e := range must(admin.Events.ListCurrentUserContributionEvents(&gitlab.ListContributionEventsOptions{
		TargetType: &issueType, ListOptions: gitlab.ListOptions{PerPage: 100},
	})) {
		issueEvents[e.ActionName]++
	}
	out["events"] = map[string]any{"pushes": pushes, "issues": issueEvents}

	// Refusals as go-gitlab reports them.
	out["errors"] = map[string]any{
		"missing_project": refusal(admin.Projects.GetProject("go-team/missing", nil)),
		"missing_issue":   refusal(admin.Issues.GetIssue(pid, 99)),
		"reporter_branch": refusal(reporter.Branches.CreateBranch(pid, &gitlab.CreateBranchOptions{Branch: gitlab.String("nope"), Ref: gitlab.String("main")})),
		"reporter_variable": refusal(reporter.ProjectVariables.CreateVariable(pid, &gitlab.CreateProjectVariableOptions{
			Key: gitlab.String("NOPE"), Value: gitlab.String("no"),
		})),
		"no_title":      refusal(admin.Issues.CreateIssue(pid, &gitlab.CreateIssueOptions{})),
		"bad_color":     refusal(admin.Labels.CreateLabel(pid, &gitlab.CreateLabelOptions{Name: gitlab.String("bad"), Color: gitlab.String("nocolor")})),
		"taken_label":   refusal(admin.Labels.CreateLabel(pid, &gitlab.CreateLabelOptions{Name: gitlab.String("bug"), Color: gitlab.String("#000000")})),
		"bad_variable":  refusal(admin.ProjectVariables.CreateVariable(pid, &gitlab.CreateProjectVariableOptions{Key: gitlab.String("bad key!"), Value: gitlab.String("x")})),
		"reporter_read": len(must(reporter.Issues.ListProjectIssues(pid, nil))),
	}

	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
