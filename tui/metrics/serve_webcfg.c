/* SPDX-License-Identifier: GPL-2.0-or-later */
/* serve_webcfg.c: reading node_exporter's web configuration file with libyaml. */
#include "tui/metrics/serve_webcfg.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "tui/metrics/serve_module.h"

/* What a failed load returns, as main's exit status. */
#define WEBCFG_BAD 2
#define WEBCFG_UNREADABLE 1
/* What read_file returns for a file refused for what it is (serve_module.h). */
#define WEBCFG_HOST_REFUSED (-2)

struct webcfg_ctx {
	const struct serve_host *h;
	yaml_document_t doc;
	const char *path;
	char *dir; /* the file's folder, for relative names */
	char *err;
	size_t errlen;
};

static int webcfg_fail(struct webcfg_ctx *x, const yaml_node_t *n, const char *fmt,
		       const char *what)
{
	char msg[256];
	snprintf(msg, sizeof(msg), fmt, what);
	if (n)
		snprintf(x->err, x->errlen, "%s:%lu: %s", x->path,
			 (unsigned long)n->start_mark.line + 1, msg);
	else
		snprintf(x->err, x->errlen, "%s: %s", x->path, msg);
	return WEBCFG_BAD;
}

static const char *webcfg_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A file the configuration names, read through the program (core/safefile.h) like the
 * configuration. */
static int webcfg_read_named(struct webcfg_ctx *x, const yaml_node_t *n, const char *key,
			     char **out)
{
	const char *name = webcfg_scalar(n);
	if (!name || !*name)
		return webcfg_fail(x, n, "%s: a file name", key);
	char *path = name[0] == '/' ? x->h->xstrdup(name) : NULL;
	if (!path) {
		size_t len = strlen(x->dir) + strlen(name) + 2;
		path = x->h->xmalloc(len);
		snprintf(path, len, "%s/%s", x->dir, name);
	}
	char why[512];
	size_t len;
	int rc = x->h->read_file(path, SERVE_WEBCFG_MAX_BYTES, out, &len, why, sizeof(why));
	free(path);
	if (rc != 0) {
		snprintf(x->err, x->errlen, "%s: %s: %s", x->path, key, why);
		return rc == WEBCFG_HOST_REFUSED ? WEBCFG_BAD : WEBCFG_UNREADABLE;
	}
	return 0;
}

/* A key given twice is an error, as YAML 1.2 has it (and the second would leak the first). */
static int webcfg_unique_keys(struct webcfg_ctx *x, yaml_node_t *map)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *a = webcfg_scalar(yaml_document_get_node(&x->doc, p->key));
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; a && q < p; q++) {
			yaml_node_t *k = yaml_document_get_node(&x->doc, q->key);
			const char *b = webcfg_scalar(k);
			if (b && strcmp(a, b) == 0)
				return webcfg_fail(x, k, "'%s' is given twice", a);
		}
	}
	return 0;
}

/* "TLS12" -> 2 (TLS 1.2), -1 for a name exporter-toolkit does not have. */
static int webcfg_tls_version(const char *v)
{
	static const char *const names[] = {"TLS10", "TLS11", "TLS12", "TLS13"};
	for (int i = 0; v && i < 4; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1;
}

/* Every key of tls_server_config known before any file is read: a misspelt key is the error
 * to report. */
static int webcfg_tls_known(struct webcfg_ctx *x, yaml_node_t *map)
{
	static const char *const known[] = {"cert_file",	"key_file",    "client_ca_file",
					    "client_auth_type", "min_version", "max_version"};
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&x->doc, p->key);
		const char *key = webcfg_scalar(k);
		size_t i = 0;
		while (key && i < sizeof(known) / sizeof(known[0]) && strcmp(key, known[i]) != 0)
			i++;
		if (!key || i == sizeof(known) / sizeof(known[0]))
			return webcfg_fail(
			    x, k,
			    "tls_server_config: unknown key '%s' (known: cert_file, "
			    "key_file, client_auth_type, client_ca_file, min_version, "
			    "max_version)",
			    key ? key : "?");
	}
	return 0;
}

/* client_auth_type (the node auth, NULL: NoClientCert) into cfg, checked against
 * client_ca_file. */
static int webcfg_tls_auth(struct webcfg_ctx *x, yaml_node_t *map, const yaml_node_t *auth,
			   struct serve_webcfg *cfg)
{
	const char *a = auth ? webcfg_scalar(auth) : "NoClientCert";
	if (a && strcmp(a, "NoClientCert") == 0)
		cfg->client_auth = SERVE_CLIENT_NONE;
	else if (a && strcmp(a, "VerifyClientCertIfGiven") == 0)
		cfg->client_auth = SERVE_CLIENT_VERIFY_IF_GIVEN;
	else if (a && strcmp(a, "RequireAndVerifyClientCert") == 0)
		cfg->client_auth = SERVE_CLIENT_REQUIRE_VERIFY;
	else
		return webcfg_fail(x, auth,
				   "client_auth_type: '%s' is not one tunetop has (NoClientCert, "
				   "VerifyClientCertIfGiven, RequireAndVerifyClientCert)",
				   a ? a : "?");
	/* As exporter-toolkit: a CA means nothing without a policy, a policy nothing without it. */
	if (cfg->client_auth != SERVE_CLIENT_NONE && !cfg->ca_pem)
		return webcfg_fail(x, auth, "client_auth_type %s needs client_ca_file", a);
	if (cfg->client_auth == SERVE_CLIENT_NONE && cfg->ca_pem)
		return webcfg_fail(x, map, "%s: client_ca_file with client_auth_type NoClientCert",
				   "tls_server_config");
	return 0;
}

/* gnutls's priority string for the versions min..max (0: TLS 1.0 .. 3: TLS 1.3). */
static void webcfg_tls_priorities(struct serve_webcfg *cfg, int min, int max)
{
	static const char *const vers[] = {"+VERS-TLS1.0", "+VERS-TLS1.1", "+VERS-TLS1.2",
					   "+VERS-TLS1.3"};
	size_t off = (size_t)snprintf(cfg->priorities, sizeof(cfg->priorities), "NORMAL:-VERS-ALL");
	for (int i = max; i >= min; i--)
		off += (size_t)snprintf(cfg->priorities + off, sizeof(cfg->priorities) - off, ":%s",
					vers[i]);
}

static int webcfg_tls(struct webcfg_ctx *x, yaml_node_t *map, struct serve_webcfg *cfg)
{
	int min = 2, max = 3, rc;
	const yaml_node_t *auth = NULL;

	if (map->type != YAML_MAPPING_NODE)
		return webcfg_fail(x, map, "%s: a mapping of cert_file, key_file, ...",
				   "tls_server_config");
	if ((rc = webcfg_unique_keys(x, map)) != 0 || (rc = webcfg_tls_known(x, map)) != 0)
		return rc;
	/* Every key is known and given once (checked above). */
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *key = webcfg_scalar(yaml_document_get_node(&x->doc, p->key));
		yaml_node_t *v = yaml_document_get_node(&x->doc, p->value);
		char **pem = strcmp(key, "cert_file") == 0	  ? &cfg->cert_pem
			     : strcmp(key, "key_file") == 0	  ? &cfg->key_pem
			     : strcmp(key, "client_ca_file") == 0 ? &cfg->ca_pem
								  : NULL;
		if (pem) {
			if ((rc = webcfg_read_named(x, v, key, pem)) != 0)
				return rc;
		} else if (strcmp(key, "client_auth_type") == 0) {
			auth = v;
		} else { /* min_version, max_version */
			int ver = webcfg_tls_version(webcfg_scalar(v));
			if (ver < 0)
				return webcfg_fail(x, v, "%s: TLS10, TLS11, TLS12 or TLS13", key);
			*(key[1] == 'i' ? &min : &max) = ver;
		}
	}
	if (!cfg->cert_pem || !cfg->key_pem)
		return webcfg_fail(x, map, "%s: both cert_file and key_file are needed",
				   "tls_server_config");
	if (min > max)
		return webcfg_fail(x, map, "%s: min_version is above max_version",
				   "tls_server_config");
	if ((rc = webcfg_tls_auth(x, map, auth, cfg)) != 0)
		return rc;
	webcfg_tls_priorities(cfg, min, max);
	return 0;
}

/* A bcrypt hash's cost ($2b$NN$...), or -1 when it is not one: the characters after the cost are
 * bcrypt's base64 (./A-Za-z0-9), 22 of salt and 31 of hash. */
static int webcfg_bcrypt_cost(const char *hash)
{
	static const char b64[] =
	    "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	if (!hash || strlen(hash) != 60 || hash[0] != '$' || hash[1] != '2' ||
	    !strchr("aby", hash[2]) || hash[3] != '$' || hash[4] < '0' || hash[4] > '9' ||
	    hash[5] < '0' || hash[5] > '9' || hash[6] != '$' || strspn(hash + 7, b64) != 53)
		return -1;
	return (hash[4] - '0') * 10 + (hash[5] - '0');
}

static int webcfg_users(struct webcfg_ctx *x, yaml_node_t *map, struct serve_webcfg *cfg)
{
	if (map->type != YAML_MAPPING_NODE)
		return webcfg_fail(x, map, "%s: a mapping of user: bcrypt hash",
				   "basic_auth_users");
	size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	cfg->users = x->h->xcalloc(n ? n : 1, sizeof(*cfg->users));
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&x->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&x->doc, p->value);
		const char *user = webcfg_scalar(k), *hash = webcfg_scalar(v);
		if (!user || !*user || strchr(user, ':'))
			return webcfg_fail(x, k, "%s: a user is a name without ':'",
					   "basic_auth_users");
		int cost = webcfg_bcrypt_cost(hash);
		if (cost < 0)
			return webcfg_fail(x, v,
					   "basic_auth_users: %s: the password is a bcrypt hash "
					   "($2y$..., 60 characters: htpasswd -nBC 10 USER)",
					   user);
		if (cost < SERVE_BCRYPT_MIN_COST || cost > SERVE_BCRYPT_MAX_COST) {
			char what[160];
			snprintf(what, sizeof(what), "%s: bcrypt cost %d is outside %d..%d", user,
				 cost, SERVE_BCRYPT_MIN_COST, SERVE_BCRYPT_MAX_COST);
			return webcfg_fail(x, v,
					   "basic_auth_users: %s (htpasswd -B's range: one check "
					   "doubles in time with each step)",
					   what);
		}
		for (size_t i = 0; i < cfg->nusers; i++)
			if (strcmp(cfg->users[i].name, user) == 0)
				return webcfg_fail(x, k, "basic_auth_users: %s twice", user);
		cfg->users[cfg->nusers].name = x->h->xstrdup(user);
		cfg->users[cfg->nusers].hash = x->h->xstrdup(hash);
		cfg->nusers++;
	}
	return 0;
}

static int webcfg_root(struct webcfg_ctx *x, struct serve_webcfg *cfg)
{
	yaml_node_t *root = yaml_document_get_root_node(&x->doc);
	if (!root) /* an empty file: plain HTTP, as without one */
		return 0;
	if (root->type == YAML_SCALAR_NODE && !*webcfg_scalar(root))
		return 0;
	if (root->type != YAML_MAPPING_NODE)
		return webcfg_fail(x, root, "%s",
				   "a mapping of tls_server_config, basic_auth_users");
	int urc = webcfg_unique_keys(x, root);
	if (urc)
		return urc;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&x->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&x->doc, p->value);
		const char *key = webcfg_scalar(k);
		int rc;
		if (key && strcmp(key, "tls_server_config") == 0)
			rc = webcfg_tls(x, v, cfg);
		else if (key && strcmp(key, "basic_auth_users") == 0)
			rc = webcfg_users(x, v, cfg);
		else
			rc = webcfg_fail(x, k,
					 "unknown key '%s' (known: tls_server_config, "
					 "basic_auth_users)",
					 key ? key : "?");
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Whether text's brackets ([ and {, quoted or not) nest at most SERVE_WEBCFG_MAX_DEPTH deep.
 * libyaml (0.2.5) has no depth limit, and its scanner keeps a possible simple key per flow
 * level, checked at each token: 100,000 nested [ take it minutes. Counted on the raw text
 * before libyaml sees it; a real configuration has no bracket in a quoted name.
 */
static bool webcfg_depth_ok(const char *text, size_t len)
{
	size_t depth = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '[' || text[i] == '{') {
			if (++depth > SERVE_WEBCFG_MAX_DEPTH)
				return false;
		} else if ((text[i] == ']' || text[i] == '}') && depth) {
			depth--;
		}
	}
	return true;
}

int serve_webcfg_load(const struct serve_host *h, const char *path, struct serve_webcfg *cfg,
		      char *err, size_t errlen)
{
	char *text;
	size_t len;
	struct webcfg_ctx x = {.h = h, .path = path, .err = err, .errlen = errlen};
	yaml_parser_t parser;

	memset(cfg, 0, sizeof(*cfg));
	int rc = h->read_file(path, SERVE_WEBCFG_MAX_BYTES, &text, &len, err, errlen);
	if (rc != 0)
		return rc == WEBCFG_HOST_REFUSED ? WEBCFG_BAD : WEBCFG_UNREADABLE;
	if (!webcfg_depth_ok(text, len)) {
		snprintf(err, errlen, "%s: brackets nested deeper than %d", path,
			 SERVE_WEBCFG_MAX_DEPTH);
		free(text);
		return WEBCFG_BAD;
	}
	const char *slash = strrchr(path, '/');
	size_t dlen = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
	x.dir = h->xmalloc(dlen + 1);
	memcpy(x.dir, slash ? path : ".", dlen);
	x.dir[dlen] = '\0';
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &x.doc)) {
		snprintf(err, errlen, "%s:%lu: %s", path,
			 (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "not YAML");
		rc = WEBCFG_BAD;
	} else {
		rc = webcfg_root(&x, cfg);
		yaml_document_delete(&x.doc);
	}
	yaml_parser_delete(&parser);
	free(x.dir);
	free(text);
	if (rc)
		serve_webcfg_free(cfg);
	return rc;
}

void serve_webcfg_free(struct serve_webcfg *cfg)
{
	free(cfg->cert_pem);
	free(cfg->key_pem);
	free(cfg->ca_pem);
	for (size_t i = 0; i < cfg->nusers; i++) {
		free(cfg->users[i].name);
		free(cfg->users[i].hash);
	}
	free(cfg->users);
	memset(cfg, 0, sizeof(*cfg));
}
