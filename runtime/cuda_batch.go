package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	goruntime "runtime"
	"unsafe"
)

// A Batch is a fixed sequence of kernel launches prepared once and issued
// many times (a benchmark's warm-up and timed repetitions). Preparing it
// packs every launch's arguments into one pinned buffer of 8-byte slots
// and the parameter pointer arrays into another, so Run issues the whole
// sequence in one tight loop on the context's thread: no allocation, no
// thread hand-off and no type switch per launch, which keeps the host's
// launch rate close to that of a CUDA C host loop.

// BatchLaunch is one launch of a Batch.
type BatchLaunch struct {
	F           *Function
	Grid, Block [3]uint32
	Smem        uint32
	Args        []any // int32, int64, float32, float64, DevPtr or BufArg, in parameter order
	// PDL launches through cuLaunchKernelEx with programmatic stream
	// serialization (cuda_pdl.go): only for a kernel that starts with
	// griddepcontrol.wait. A plain launch when the driver lacks it.
	PDL bool
	// Cooperative launches through cuLaunchCooperativeKernel (cuda_coop.go):
	// a persistent kernel, every block resident; not with PDL.
	Cooperative bool
}

// BufArg is a pointer argument bound at Run: BufArg(i) is Run's bufs[i].
// A prepared batch thus serves buffers allocated anew for every run.
type BufArg int

// Batch is a prepared launch sequence.
type Batch struct {
	c     *Context
	ls    []batchLaunch
	slots []uint64  // argument values, one 8-byte slot each
	ptrs  []uintptr // per launch: addresses of its slots (kernelParams)
	bufs  [][2]int  // (slot, buffer index) of every BufArg
	nbuf  int       // buffers Run needs
	// The launch configurations of the PDL launches and their one
	// attribute (cuda_pdl.go), pinned.
	cfgs []cuLaunchConfig
	attr []cuLaunchAttribute
	pin  goruntime.Pinner
}

type batchLaunch struct {
	f           uintptr
	name        string
	grid, block [3]uint32
	smem        uint32
	first, n    int // its entries in ptrs: ptrs[first : first+n]
	pdl         bool
	coop        bool
	cfg         int // its entry in cfgs when pdl
}

// Len is the number of launches.
func (b *Batch) Len() int { return len(b.ls) }

// NewBatch prepares ls. The dynamic shared memory limit of every kernel
// that needs more than 48 KiB is raised once here. Release frees the pins.
func (c *Context) NewBatch(ls []BatchLaunch) (*Batch, error) {
	b := &Batch{c: c}
	n := 0
	for _, l := range ls {
		n += len(l.Args)
	}
	b.slots = make([]uint64, n+1)
	b.ptrs = make([]uintptr, n+len(ls)+1)
	k, p := 0, 0
	maxSmem := map[*Function]uint32{}
	for li, l := range ls {
		if l.F == nil || l.F.m.c != c {
			return nil, fmt.Errorf("launch %d: kernel not of this context", li)
		}
		bl := batchLaunch{f: l.F.f, name: l.F.Name, grid: l.Grid, block: l.Block, smem: l.Smem, first: p, n: len(l.Args), pdl: l.PDL && !l.Cooperative, coop: l.Cooperative}
		if bl.pdl {
			bl.cfg = len(b.cfgs)
			b.cfgs = append(b.cfgs, cuLaunchConfig{})
		}
		for i, a := range l.Args {
			switch v := a.(type) {
			case int32:
				b.slots[k] = uint64(uint32(v))
			case int64:
				b.slots[k] = uint64(v) // an i64 parameter reads all 8 bytes
			case float32:
				b.slots[k] = uint64(math.Float32bits(v))
			case float64:
				b.slots[k] = math.Float64bits(v)
			case DevPtr:
				b.slots[k] = uint64(v)
			case BufArg:
				if v < 0 {
					return nil, fmt.Errorf("cuLaunchKernel(%s): argument %d: negative buffer index", l.F.Name, i)
				}
				b.bufs = append(b.bufs, [2]int{k, int(v)})
				b.nbuf = max(b.nbuf, int(v)+1)
			default:
				return nil, fmt.Errorf("cuLaunchKernel(%s): argument %d has unsupported type %T", l.F.Name, i, a)
			}
			b.ptrs[p] = uintptr(k) // an index until the slots are pinned
			k++
			p++
		}
		p++ // a zero entry after each launch's pointers
		if l.Smem > maxSmem[l.F] {
			maxSmem[l.F] = l.Smem
		}
		b.ls = append(b.ls, bl)
	}
	// Slots hold little-endian values: an int32 or float32 parameter reads
	// the first 4 bytes of its slot.
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return nil, fmt.Errorf("batched launches need a little-endian host")
	}
	b.pin.Pin(&b.slots[0])
	b.pin.Pin(&b.ptrs[0])
	if len(b.cfgs) > 0 {
		b.attr = []cuLaunchAttribute{pdlAttribute()}
		b.pin.Pin(&b.attr[0])
		b.pin.Pin(&b.cfgs[0])
		for _, l := range b.ls {
			if l.pdl {
				b.cfgs[l.cfg] = pdlConfig(l.grid, l.block, l.smem, &b.attr[0])
			}
		}
	}
	base := uintptr(unsafe.Pointer(&b.slots[0]))
	for _, l := range b.ls {
		for q := l.first; q < l.first+l.n; q++ {
			b.ptrs[q] = base + 8*b.ptrs[q]
		}
	}
	var big bool
	for _, s := range maxSmem {
		big = big || s > 48*1024
	}
	if !big {
		return b, nil
	}
	err := c.do(func() error {
		for f, s := range maxSmem {
			if s > 48*1024 {
				// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
				if err := c.d.check("cuFuncSetAttribute("+f.Name+")", c.d.cuFuncSetAttribute(f.f, 8, int32(s))); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.pin.Unpin()
		return nil, err
	}
	return b, nil
}

// Run issues every launch in order on the default stream (asynchronously:
// time it with events), with BufArg(i) bound to bufs[i].
func (b *Batch) Run(bufs ...DevPtr) error {
	if len(bufs) < b.nbuf {
		return fmt.Errorf("batch needs %d buffers, got %d", b.nbuf, len(bufs))
	}
	for _, sb := range b.bufs {
		b.slots[sb[0]] = uint64(bufs[sb[1]])
	}
	c := b.c
	return c.do(func() error {
		for i := range b.ls {
			l := &b.ls[i]
			params := unsafe.Pointer(&b.ptrs[l.first])
			if l.coop {
				if err := c.d.launchCoop(l.f, l.name, l.grid, l.block, l.smem, params); err != nil {
					return fmt.Errorf("launch %d of %d: %w", i+1, len(b.ls), err)
				}
				continue
			}
			var cfg *cuLaunchConfig
			if l.pdl {
				cfg = &b.cfgs[l.cfg]
			}
			if err := c.d.launch(l.f, l.name, l.grid, l.block, l.smem, params, l.pdl, cfg); err != nil {
				return fmt.Errorf("launch %d of %d: %w", i+1, len(b.ls), err)
			}
		}
		return nil
	})
}

// Release unpins the batch's buffers.
func (b *Batch) Release() { b.pin.Unpin() }
