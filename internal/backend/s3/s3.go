// Package s3 stores states in an S3 bucket as Terraform's and OpenTofu's
// s3 backend does, so that Terraform, OpenTofu and plankit share a bucket
// and lock each other out:
//
//   - the default workspace's state is the object KEY; any other
//     workspace's is PREFIX/NAME/KEY, where PREFIX is workspace_key_prefix
//     (default "env:"); workspaces are listed from the objects under
//     PREFIX/ whose name after PREFIX/NAME/ is KEY;
//   - with use_lockfile, the lock is the object STATE.tflock (STATE being
//     the workspace's state object), created by a conditional PUT
//     (If-None-Match: *) and holding the lock info JSON Terraform writes
//     (ID, Operation, Info, Who, Version, Created, Path). It is removed by
//     Unlock and by `plan force-unlock ID`. Without use_lockfile there is
//     no lock, as in Terraform (DynamoDB locking is not supported);
//   - each save is one PUT of the whole state, so a versioned bucket keeps
//     one version per save and no reader sees part of a state.
//
// plankit adds objects of its own beside the state, which Terraform and
// OpenTofu ignore (their names never equal KEY after PREFIX/NAME/):
// STATE.plankit-journal/NNNNNNNNNNNNNNNNNNNN, apply's journal (journal.go),
// and, for an instant while the backend is opened with use_lockfile,
// STATE.plankit-probe-ID (see Backend.probe).
//
// Credentials, the region and the profile come from the AWS SDK's default
// chain (environment, shared config and credentials files, SSO, web
// identity, container and instance metadata) unless the block sets them;
// assume_role and assume_role_with_web_identity then exchange them for a
// role's through STS (role.go).
package s3

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/hashicorp/go-uuid"

	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// DefaultWorkspaceKeyPrefix is workspace_key_prefix's default, Terraform's.
const DefaultWorkspaceKeyPrefix = "env:"

// Object name suffixes. lockSuffix is Terraform's and must not change.
const (
	lockSuffix    = ".tflock"
	journalSuffix = ".plankit-journal/"
	probeSuffix   = ".plankit-probe-"
)

// Config configures the backend, with the s3 backend block's arguments.
type Config struct {
	Bucket string
	Key    string
	// Region is the bucket's region; empty takes the SDK's (AWS_REGION,
	// AWS_DEFAULT_REGION, the profile's).
	Region string
	// Endpoint is endpoints.s3 (or the older endpoint): a custom S3 API
	// URL, for S3-compatible servers.
	Endpoint     string
	UsePathStyle bool
	// WorkspaceKeyPrefix is workspace_key_prefix; nil means the default.
	WorkspaceKeyPrefix *string

	Encrypt        bool
	KMSKeyID       string
	SSECustomerKey string // base64 of a 256-bit key (SSE-C)
	ACL            string

	UseLockfile bool

	SkipCredentialsValidation bool
	SkipRegionValidation      bool
	SkipRequestingAccountID   bool
	SkipMetadataAPICheck      bool
	// SkipS3Checksum sends no checksum with uploads and validates none on
	// downloads unless the API requires it: for S3-compatible servers that
	// reject the SDK's default checksums (aws-chunked trailers).
	SkipS3Checksum bool

	Profile                string
	AccessKey, SecretKey   string
	Token                  string
	SharedConfigFiles      []string
	SharedCredentialsFiles []string
	// MaxRetries is how many times a failed request is retried (0: the
	// SDK's default).
	MaxRetries int

	// AssumeRole and AssumeRoleWithWebIdentity are the roles assumed
	// (role.go); nil when not set.
	AssumeRole                *AssumeRole
	AssumeRoleWithWebIdentity *AssumeRoleWithWebIdentity
	// STSEndpoint is endpoints.sts (or the older sts_endpoint): a custom
	// STS API URL for assuming the roles; STSRegion is sts_region, STS's
	// region when it differs from region.
	STSEndpoint string
	STSRegion   string
}

// Backend is a configured s3 backend.
type Backend struct {
	cfg       Config
	prefix    string
	client    *s3.Client
	endpoint  string // for messages: the custom endpoint or "AWS S3 (REGION)"
	describes string
	sseKeyMD5 string
	codec     statemgr.Codec

	probeOnce sync.Once
	probeErr  error
}

var _ backend.Backend = (*Backend)(nil)

var regionRE = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`)

// Validate checks the settings that need no server.
func (c *Config) Validate() error {
	if c.Bucket == "" {
		return errors.New("the s3 backend needs a bucket: set bucket in the backend block or with -backend-config=bucket=NAME")
	}
	if c.Key == "" {
		return errors.New("the s3 backend needs a key (the state object's name): set key in the backend block or with -backend-config=key=PATH")
	}
	if strings.HasPrefix(c.Key, "/") || strings.HasSuffix(c.Key, "/") {
		return fmt.Errorf("the s3 backend's key %q must not begin or end with \"/\"", c.Key)
	}
	if p := c.WorkspaceKeyPrefix; p != nil && (strings.HasPrefix(*p, "/") || strings.HasSuffix(*p, "/")) {
		return fmt.Errorf("the s3 backend's workspace_key_prefix %q must not begin or end with \"/\"", *p)
	}
	if c.KMSKeyID != "" && c.SSECustomerKey != "" {
		return errors.New("the s3 backend's kms_key_id and sse_customer_key cannot both be set: choose SSE-KMS or SSE-C")
	}
	if c.SSECustomerKey != "" {
		k, err := base64.StdEncoding.DecodeString(c.SSECustomerKey)
		if err != nil || len(k) != 32 {
			// Never the key itself in the message.
			return errors.New("the s3 backend's sse_customer_key must be a 256-bit key encoded in base64 (44 characters)")
		}
	}
	if c.AccessKey != "" && c.SecretKey == "" || c.AccessKey == "" && c.SecretKey != "" {
		return errors.New("the s3 backend's access_key and secret_key must be set together")
	}
	if c.Region != "" && !c.SkipRegionValidation && !regionRE.MatchString(c.Region) {
		return fmt.Errorf("the s3 backend's region %q is not an AWS region name; for an S3-compatible server with its own region names set skip_region_validation = true", c.Region)
	}
	if c.AssumeRole != nil {
		if err := c.AssumeRole.validate(); err != nil {
			return err
		}
	}
	if c.AssumeRoleWithWebIdentity != nil {
		if err := c.AssumeRoleWithWebIdentity.validate(); err != nil {
			return err
		}
	}
	return nil
}

// New loads the AWS configuration and credentials and, with use_lockfile,
// checks that the server refuses a conditional PUT on an existing object
// (see probe). Errors never contain credentials.
func New(ctx context.Context, cfg Config) (*Backend, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var opts []func(*awsconfig.LoadOptions) error
	if cfg.Region != "" {
		opts = append(opts, awsconfig.WithRegion(cfg.Region))
	}
	if cfg.Profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(cfg.Profile))
	}
	if len(cfg.SharedConfigFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedConfigFiles(cfg.SharedConfigFiles))
	}
	if len(cfg.SharedCredentialsFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedCredentialsFiles(cfg.SharedCredentialsFiles))
	}
	if cfg.AccessKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, cfg.Token)))
	}
	if cfg.SkipMetadataAPICheck {
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	if cfg.MaxRetries > 0 {
		opts = append(opts, awsconfig.WithRetryMaxAttempts(cfg.MaxRetries+1))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("loading the AWS configuration for the s3 backend: %w", err)
	}
	if awsCfg.Region == "" {
		return nil, errors.New("the s3 backend needs a region: set region in the backend block, or AWS_REGION, or a profile's region")
	}
	awsCfg = withRoles(awsCfg, cfg)
	if !cfg.SkipCredentialsValidation {
		if awsCfg.Credentials == nil {
			return nil, errors.New("the s3 backend found no usable AWS credentials (environment, shared credentials and config files, SSO, web identity, instance metadata)")
		}
		if _, err := awsCfg.Credentials.Retrieve(ctx); err != nil {
			if roles := cfg.rolesDescription(); roles != "" {
				return nil, fmt.Errorf("the s3 backend could not get credentials %s: %w", roles, err)
			}
			return nil, fmt.Errorf("the s3 backend found no usable AWS credentials (environment, shared credentials and config files, SSO, web identity, instance metadata): %w", err)
		}
	}
	b := &Backend{cfg: cfg, prefix: DefaultWorkspaceKeyPrefix}
	if cfg.WorkspaceKeyPrefix != nil {
		b.prefix = *cfg.WorkspaceKeyPrefix
	}
	b.client = s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.UsePathStyle
		if cfg.SkipS3Checksum {
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
	})
	b.endpoint = cfg.Endpoint
	if b.endpoint == "" {
		b.endpoint = fmt.Sprintf("AWS S3 (region %s)", awsCfg.Region)
	}
	b.describes = fmt.Sprintf("S3 bucket %q at %s", cfg.Bucket, b.endpoint)
	if cfg.SSECustomerKey != "" {
		b.sseKeyMD5 = sseKeyMD5(cfg.SSECustomerKey)
	}
	if cfg.UseLockfile {
		if err := b.Probe(ctx); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// sseKeyMD5 is the MD5 digest S3 wants with an SSE-C key, in base64.
func sseKeyMD5(key string) string {
	k, _ := base64.StdEncoding.DecodeString(key)
	sum := md5.Sum(k)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// Describe names the bucket and the server.
func (b *Backend) Describe() string { return b.describes }

// SetCodec makes the managers StateMgr returns from now on store states
// through c (state encryption), including a new workspace's first state.
func (b *Backend) SetCodec(c statemgr.Codec) { b.codec = c }

// stateKey is the object holding a workspace's state.
func (b *Backend) stateKey(ws string) string {
	if ws == backend.DefaultWorkspace {
		return b.cfg.Key
	}
	return path.Join(b.prefix, ws, b.cfg.Key)
}

// ErrConditionalWritesIgnored is the probe's error when the server stored
// a second conditional PUT of an existing object.
var ErrConditionalWritesIgnored = errors.New("the server ignores If-None-Match on PUT")

// Probe checks that the server refuses a conditional PUT (If-None-Match:
// *) of an object that exists: the lock depends on it, and a server that
// ignores the header would let two processes both "take" the lock. It
// creates an object of its own (a fresh name each time, so two probes at
// once do not meet), PUTs it again conditionally, and deletes it. Run once
// per Backend.
func (b *Backend) Probe(ctx context.Context) error {
	b.probeOnce.Do(func() { b.probeErr = b.probe(ctx) })
	return b.probeErr
}

func (b *Backend) probe(ctx context.Context) error {
	id, err := uuid.GenerateUUID()
	if err != nil {
		return err
	}
	key := b.cfg.Key + probeSuffix + id
	body := []byte("plankit checks that this server refuses a conditional PUT of an existing object; this object is removed at once\n")
	if err := b.put(ctx, key, body, true); err != nil {
		return fmt.Errorf("checking that %s supports conditional writes (use_lockfile): writing s3://%s/%s: %w", b.describes, b.cfg.Bucket, key, err)
	}
	defer b.delete(context.WithoutCancel(ctx), key)
	err = b.put(ctx, key, body, true)
	switch {
	case err == nil:
		return fmt.Errorf("%w: the S3 server at %s accepted a second PUT of s3://%s/%s with If-None-Match: * although the object existed, so the lock object of use_lockfile = true would not keep two runs apart. Use a server that supports conditional writes (AWS S3, or a compatible server that returns 412 Precondition Failed), or, knowing that nothing then prevents two runs from writing the state at once, remove use_lockfile", ErrConditionalWritesIgnored, b.endpoint, b.cfg.Bucket, key)
	case isPreconditionFailed(err):
		return nil
	default:
		return fmt.Errorf("checking that %s supports conditional writes (use_lockfile): %w", b.describes, err)
	}
}

// put writes data as key in one PUT, conditionally on key not existing
// when ifNoneMatch, with the configured encryption, ACL and checksum.
func (b *Backend) put(ctx context.Context, key string, data []byte, ifNoneMatch bool) error {
	_, err := b.client.PutObject(ctx, b.putInput(key, data, ifNoneMatch))
	return err
}

// putInput is put's request.
func (b *Backend) putInput(key string, data []byte, ifNoneMatch bool) *s3.PutObjectInput {
	in := &s3.PutObjectInput{
		Bucket:        aws.String(b.cfg.Bucket),
		Key:           aws.String(key),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		ContentType:   aws.String("application/json"),
	}
	if ifNoneMatch {
		in.IfNoneMatch = aws.String("*")
	}
	if !b.cfg.SkipS3Checksum {
		// A checksum computed here goes in a header; left to the SDK it is
		// sent as an aws-chunked trailer, which some S3-compatible servers
		// reject.
		sum := sha256.Sum256(data)
		in.ChecksumAlgorithm = types.ChecksumAlgorithmSha256
		in.ChecksumSHA256 = aws.String(base64.StdEncoding.EncodeToString(sum[:]))
	}
	switch {
	case b.cfg.SSECustomerKey != "":
		in.SSECustomerAlgorithm = aws.String("AES256")
		in.SSECustomerKey = aws.String(b.cfg.SSECustomerKey)
		in.SSECustomerKeyMD5 = aws.String(b.sseKeyMD5)
	case b.cfg.Encrypt && b.cfg.KMSKeyID != "":
		in.ServerSideEncryption = types.ServerSideEncryptionAwsKms
		in.SSEKMSKeyId = aws.String(b.cfg.KMSKeyID)
	case b.cfg.Encrypt:
		in.ServerSideEncryption = types.ServerSideEncryptionAes256
	}
	if b.cfg.ACL != "" {
		in.ACL = types.ObjectCannedACL(b.cfg.ACL)
	}
	return in
}

// get reads key; a missing object is (nil, false, nil).
func (b *Backend) get(ctx context.Context, key string) ([]byte, bool, error) {
	in := &s3.GetObjectInput{Bucket: aws.String(b.cfg.Bucket), Key: aws.String(key)}
	if b.cfg.SSECustomerKey != "" {
		in.SSECustomerAlgorithm = aws.String("AES256")
		in.SSECustomerKey = aws.String(b.cfg.SSECustomerKey)
		in.SSECustomerKeyMD5 = aws.String(b.sseKeyMD5)
	}
	out, err := b.client.GetObject(ctx, in)
	if isNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// delete removes key (a missing one is no error, as in S3).
func (b *Backend) delete(ctx context.Context, key string) error {
	_, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(b.cfg.Bucket), Key: aws.String(key)})
	if isNotFound(err) {
		return nil
	}
	return err
}

// list returns the keys under prefix, sorted.
func (b *Backend) list(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: aws.String(b.cfg.Bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	sort.Strings(keys)
	return keys, nil
}

// exists reports whether key exists.
func (b *Backend) exists(ctx context.Context, key string) (bool, error) {
	in := &s3.HeadObjectInput{Bucket: aws.String(b.cfg.Bucket), Key: aws.String(key)}
	if b.cfg.SSECustomerKey != "" {
		in.SSECustomerAlgorithm = aws.String("AES256")
		in.SSECustomerKey = aws.String(b.cfg.SSECustomerKey)
		in.SSECustomerKeyMD5 = aws.String(b.sseKeyMD5)
	}
	_, err := b.client.HeadObject(ctx, in)
	if isNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Workspaces lists "default" and every workspace with a state object
// PREFIX/NAME/KEY (with an empty prefix: NAME/KEY).
func (b *Backend) Workspaces(ctx context.Context) ([]string, error) {
	prefix := ""
	if b.prefix != "" {
		prefix = b.prefix + "/"
	}
	keys, err := b.list(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces in %s: %w", b.describes, err)
	}
	out := []string{backend.DefaultWorkspace}
	seen := map[string]bool{}
	for _, k := range keys {
		name, rest, ok := strings.Cut(strings.TrimPrefix(k, prefix), "/")
		if !ok || rest != b.cfg.Key || name == "" || name == backend.DefaultWorkspace || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, name)
	}
	sort.Strings(out[1:])
	return out, nil
}

// DeleteWorkspace deletes a workspace's state object and journal.
func (b *Backend) DeleteWorkspace(ctx context.Context, name string) error {
	if name == backend.DefaultWorkspace || name == "" {
		return errors.New("the default workspace cannot be deleted")
	}
	key := b.stateKey(name)
	journal, err := b.list(ctx, key+journalSuffix)
	if err == nil {
		for _, k := range journal {
			if err = b.delete(ctx, k); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = b.delete(ctx, key)
	}
	if err != nil {
		return fmt.Errorf("deleting workspace %q in %s: %w", name, b.describes, err)
	}
	return nil
}

// Close releases nothing: requests hold no connection open between them.
func (b *Backend) Close() error { return nil }

func statusOf(err error) int {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

func isNotFound(err error) bool {
	if err == nil {
		return false
	}
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	if errors.As(err, &nsk) || errors.As(err, &nf) {
		return true
	}
	var ae smithy.APIError
	if errors.As(err, &ae) && (ae.ErrorCode() == "NoSuchKey" || ae.ErrorCode() == "NotFound") {
		return true
	}
	return statusOf(err) == http.StatusNotFound && !isNoSuchBucket(err)
}

func isNoSuchBucket(err error) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "NoSuchBucket"
}

// isPreconditionFailed reports a conditional write refused because the
// object exists (412), or because another conditional write on it is in
// progress (409 ConditionalRequestConflict, AWS).
func isPreconditionFailed(err error) bool {
	if err == nil {
		return false
	}
	var ae smithy.APIError
	if errors.As(err, &ae) && (ae.ErrorCode() == "PreconditionFailed" || ae.ErrorCode() == "ConditionalRequestConflict") {
		return true
	}
	s := statusOf(err)
	return s == http.StatusPreconditionFailed
}
