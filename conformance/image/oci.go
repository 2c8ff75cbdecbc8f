package image

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The parts of the OCI image spec (image-layout, index, manifest, config)
// this package reads.
const (
	mediaIndex        = "application/vnd.oci.image.index.v1+json"
	mediaDockerList   = "application/vnd.docker.distribution.manifest.list.v2+json"
	mediaLayerGzip    = "application/vnd.oci.image.layer.v1.tar+gzip"
	mediaLayerTar     = "application/vnd.oci.image.layer.v1.tar"
	mediaDockerLayers = "application/vnd.docker.image.rootfs.diff.tar.gzip"
)

// Descriptor points at a blob of the layout.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *Platform         `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Platform is an image's OS and architecture.
type Platform struct {
	OS           string `json:"os"`
	Architecture string `json:"architecture"`
}

func (p Platform) String() string { return p.OS + "/" + p.Architecture }

type index struct {
	Manifests []Descriptor `json:"manifests"`
}

type manifest struct {
	Config Descriptor   `json:"config"`
	Layers []Descriptor `json:"layers"`
}

// ImageConfig is the runtime part of an image's configuration: what an
// engine uses to start a container.
type ImageConfig struct {
	User         string              `json:"User"`
	ExposedPorts map[string]struct{} `json:"ExposedPorts"`
	Env          []string            `json:"Env"`
	Entrypoint   []string            `json:"Entrypoint"`
	Cmd          []string            `json:"Cmd"`
	WorkingDir   string              `json:"WorkingDir"`
	Labels       map[string]string   `json:"Labels"`
}

// Image is one platform's image of the layout.
type Image struct {
	Platform Platform
	Config   ImageConfig
	Layers   []Descriptor
}

// Layout is an OCI image layout directory.
type Layout struct{ dir string }

// OpenLayout checks that dir is an OCI image layout.
func OpenLayout(dir string) (*Layout, error) {
	b, err := os.ReadFile(filepath.Join(dir, "oci-layout"))
	if err != nil {
		return nil, fmt.Errorf("not an OCI layout: %w", err)
	}
	var marker struct {
		Version string `json:"imageLayoutVersion"`
	}
	if err := json.Unmarshal(b, &marker); err != nil || marker.Version == "" {
		return nil, fmt.Errorf("%s/oci-layout: no imageLayoutVersion", dir)
	}
	return &Layout{dir: dir}, nil
}

// Images lists every platform image reachable from index.json, following
// nested indexes (a manifest list pushed with --all).
func (l *Layout) Images() ([]Image, error) {
	var top index
	if err := l.readJSON("index.json", &top); err != nil {
		return nil, err
	}
	var out []Image
	var walk func(descs []Descriptor, depth int) error
	walk = func(descs []Descriptor, depth int) error {
		if depth > 3 {
			return errors.New("indexes nested too deep")
		}
		for _, d := range descs {
			if d.MediaType == mediaIndex || d.MediaType == mediaDockerList {
				var sub index
				if err := l.readBlobJSON(d, &sub); err != nil {
					return err
				}
				if err := walk(sub.Manifests, depth+1); err != nil {
					return err
				}
				continue
			}
			img, err := l.image(d)
			if err != nil {
				return err
			}
			out = append(out, img)
		}
		return nil
	}
	if err := walk(top.Manifests, 0); err != nil {
		return nil, err
	}
	return out, nil
}

func (l *Layout) image(d Descriptor) (Image, error) {
	var m manifest
	if err := l.readBlobJSON(d, &m); err != nil {
		return Image{}, err
	}
	var cfg struct {
		OS           string      `json:"os"`
		Architecture string      `json:"architecture"`
		Config       ImageConfig `json:"config"`
	}
	if err := l.readBlobJSON(m.Config, &cfg); err != nil {
		return Image{}, err
	}
	return Image{Platform: Platform{OS: cfg.OS, Architecture: cfg.Architecture}, Config: cfg.Config, Layers: m.Layers}, nil
}

// blobPath is where a digest's blob lives; only sha256 digests are used.
func (l *Layout) blobPath(digest string) (string, error) {
	hexPart, ok := strings.CutPrefix(digest, "sha256:")
	if !ok || len(hexPart) != 64 {
		return "", fmt.Errorf("unsupported digest %q", digest)
	}
	if _, err := hex.DecodeString(hexPart); err != nil {
		return "", fmt.Errorf("digest %q: %w", digest, err)
	}
	return filepath.Join(l.dir, "blobs", "sha256", hexPart), nil
}

func (l *Layout) readJSON(name string, v any) error {
	b, err := os.ReadFile(filepath.Join(l.dir, name))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// readBlobJSON reads a small blob, checking its size and digest.
func (l *Layout) readBlobJSON(d Descriptor, v any) error {
	p, err := l.blobPath(d.Digest)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	if "sha256:"+hex.EncodeToString(sum[:]) != d.Digest || int64(len(b)) != d.Size {
		return fmt.Errorf("blob %s: digest or size mismatch", d.Digest)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("blob %s: %w", d.Digest, err)
	}
	return nil
}

// Entry is one file of an unpacked image, as its layer recorded it.
type Entry struct {
	Type     byte // tar.TypeDir, tar.TypeReg, ...
	Mode     os.FileMode
	UID, GID int
	Size     int64
}

// Unpacked is an image's root file system in a folder.
type Unpacked struct {
	RootFS     string
	Entries    map[string]Entry // "/data", "/xxl-admin-go", ...
	Compressed int64            // layer blobs as stored and pulled
	FileBytes  int64            // regular file contents: the unpacked size
}

// Unpack applies the image's layers in order into dst, verifying each
// layer's digest. With chown the files get the owners the layers record
// (needs root); without, they belong to the caller.
func (l *Layout) Unpack(img Image, dst string, chown bool) (*Unpacked, error) {
	u := &Unpacked{RootFS: dst, Entries: map[string]Entry{}}
	for _, layer := range img.Layers {
		if err := l.applyLayer(layer, u, chown); err != nil {
			return nil, fmt.Errorf("layer %s: %w", layer.Digest, err)
		}
		u.Compressed += layer.Size
	}
	for _, e := range u.Entries {
		if e.Type == tar.TypeReg {
			u.FileBytes += e.Size
		}
	}
	return u, nil
}

func (l *Layout) applyLayer(d Descriptor, u *Unpacked, chown bool) error {
	p, err := l.blobPath(d.Digest)
	if err != nil {
		return err
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	var r io.Reader = io.TeeReader(f, h)
	switch d.MediaType {
	case mediaLayerGzip, mediaDockerLayers:
		zr, err := gzip.NewReader(r)
		if err != nil {
			return err
		}
		defer zr.Close()
		r = zr
	case mediaLayerTar:
	default:
		return fmt.Errorf("unsupported layer media type %q", d.MediaType)
	}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := extract(tr, hdr, u, chown); err != nil {
			return fmt.Errorf("%s: %w", hdr.Name, err)
		}
	}
	// Read what follows the tar end so the digest covers the whole blob.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, f); err != nil {
		return err
	}
	if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != d.Digest {
		return fmt.Errorf("digest mismatch: blob hashes to %s", got)
	}
	return nil
}

// extract writes one tar entry below u.RootFS. Names are cleaned to stay
// inside the root; whiteouts (.wh.NAME) remove a lower layer's file.
func extract(tr *tar.Reader, hdr *tar.Header, u *Unpacked, chown bool) error {
	name := path.Clean("/" + hdr.Name)
	if name == "/" {
		return nil
	}
	dir, base := path.Split(name)
	if strings.HasPrefix(base, ".wh.") {
		victim := path.Join(dir, strings.TrimPrefix(base, ".wh."))
		delete(u.Entries, victim)
		return os.RemoveAll(filepath.Join(u.RootFS, filepath.FromSlash(victim)))
	}
	target := filepath.Join(u.RootFS, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	mode := hdr.FileInfo().Mode()
	switch hdr.Typeflag {
	case tar.TypeDir:
		if err := os.MkdirAll(target, 0o755); err != nil {
			return err
		}
		if err := os.Chmod(target, mode.Perm()); err != nil {
			return err
		}
	case tar.TypeReg:
		_ = os.RemoveAll(target)
		f, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode.Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, tr); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		if err := os.Chmod(target, mode.Perm()); err != nil {
			return err
		}
	case tar.TypeSymlink:
		_ = os.RemoveAll(target)
		if err := os.Symlink(hdr.Linkname, target); err != nil {
			return err
		}
	case tar.TypeLink:
		src := filepath.Join(u.RootFS, filepath.FromSlash(path.Clean("/"+hdr.Linkname)))
		_ = os.RemoveAll(target)
		if err := os.Link(src, target); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unsupported tar entry type %q", hdr.Typeflag)
	}
	if chown {
		if err := os.Lchown(target, hdr.Uid, hdr.Gid); err != nil {
			return err
		}
	}
	u.Entries[name] = Entry{Type: hdr.Typeflag, Mode: mode, UID: hdr.Uid, GID: hdr.Gid, Size: hdr.Size}
	return nil
}
