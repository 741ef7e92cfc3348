target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @hx_kernel0_0(i32 %T, i32 %N, float addrspace(1)* noalias %A, i32 %c0) {
entry:
	%0 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
	%2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
	%3 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
	%4 = add i32 0, %3
	%5 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
	%6 = add i32 %N, -2
	%7 = sdiv i32 %6, 32
	%8 = srem i32 %6, 32
	%9 = icmp slt i32 %8, 0
	%10 = zext i1 %9 to i32
	%11 = sub i32 %7, %10
	br label %12

12:
	%13 = phi i32 [ %4, %entry ], [ %40, %39 ]
	%14 = icmp sle i32 %13, %11
	br i1 %14, label %15, label %23

15:
	%16 = add i32 %13, -1
	%17 = icmp sge i32 %16, 0
	%18 = mul i32 -32, %13
	%19 = add i32 %N, %18
	%20 = add i32 %19, -33
	%21 = icmp sge i32 %20, 0
	%22 = and i1 %17, %21
	br i1 %22, label %24, label %29

23:
	ret void

24:
	%25 = mul i32 32, %13
	%26 = add i32 %25, %0
	%27 = mul i32 32, %13
	%28 = add i32 %27, 31
	br label %41

29:
	%30 = mul i32 32, %13
	%31 = icmp sgt i32 %30, 1
	%32 = select i1 %31, i32 %30, i32 1
	%33 = add i32 %32, %0
	%34 = mul i32 32, %13
	%35 = add i32 %34, 31
	%36 = add i32 %N, -2
	%37 = icmp slt i32 %35, %36
	%38 = select i1 %37, i32 %35, i32 %36
	br label %76

39:
	%40 = add i32 %13, %5
	br label %12

41:
	%42 = phi i32 [ %26, %24 ], [ %74, %44 ]
	%43 = icmp sle i32 %42, %28
	br i1 %43, label %44, label %75

44:
	%45 = srem i32 %c0, 2
	%46 = mul i32 %45, %N
	%47 = add i32 %46, %42
	%48 = sext i32 %47 to i64
	%49 = getelementptr float, float addrspace(1)* %A, i64 %48
	%50 = load float, float addrspace(1)* %49
	%51 = srem i32 %c0, 2
	%52 = sub i32 %42, 1
	%53 = mul i32 %51, %N
	%54 = add i32 %53, %52
	%55 = sext i32 %54 to i64
	%56 = getelementptr float, float addrspace(1)* %A, i64 %55
	%57 = load float, float addrspace(1)* %56
	%58 = fadd float %50, %57
	%59 = srem i32 %c0, 2
	%60 = add i32 %42, 1
	%61 = mul i32 %59, %N
	%62 = add i32 %61, %60
	%63 = sext i32 %62 to i64
	%64 = getelementptr float, float addrspace(1)* %A, i64 %63
	%65 = load float, float addrspace(1)* %64
	%66 = fadd float %58, %65
	%67 = fmul float 0x3FD5554760000000, %66
	%68 = add i32 %c0, 1
	%69 = srem i32 %68, 2
	%70 = mul i32 %69, %N
	%71 = add i32 %70, %42
	%72 = sext i32 %71 to i64
	%73 = getelementptr float, float addrspace(1)* %A, i64 %72
	store float %67, float addrspace(1)* %73
	%74 = add i32 %42, 32
	br label %41

75:
	br label %39

76:
	%77 = phi i32 [ %33, %29 ], [ %109, %79 ]
	%78 = icmp sle i32 %77, %38
	br i1 %78, label %79, label %110

79:
	%80 = srem i32 %c0, 2
	%81 = mul i32 %80, %N
	%82 = add i32 %81, %77
	%83 = sext i32 %82 to i64
	%84 = getelementptr float, float addrspace(1)* %A, i64 %83
	%85 = load float, float addrspace(1)* %84
	%86 = srem i32 %c0, 2
	%87 = sub i32 %77, 1
	%88 = mul i32 %86, %N
	%89 = add i32 %88, %87
	%90 = sext i32 %89 to i64
	%91 = getelementptr float, float addrspace(1)* %A, i64 %90
	%92 = load float, float addrspace(1)* %91
	%93 = fadd float %85, %92
	%94 = srem i32 %c0, 2
	%95 = add i32 %77, 1
	%96 = mul i32 %94, %N
	%97 = add i32 %96, %95
	%98 = sext i32 %97 to i64
	%99 = getelementptr float, float addrspace(1)* %A, i64 %98
	%100 = load float, float addrspace(1)* %99
	%101 = fadd float %93, %100
	%102 = fmul float 0x3FD5554760000000, %101
	%103 = add i32 %c0, 1
	%104 = srem i32 %103, 2
	%105 = mul i32 %104, %N
	%106 = add i32 %105, %77
	%107 = sext i32 %106 to i64
	%108 = getelementptr float, float addrspace(1)* %A, i64 %107
	store float %102, float addrspace(1)* %108
	%109 = add i32 %77, 32
	br label %76

110:
	br label %39
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!nvvm.annotations = !{!0, !1, !2, !3}

!0 = !{void (i32, i32, float addrspace(1)*, i32)* @hx_kernel0_0, !"kernel", i32 1}
!1 = !{void (i32, i32, float addrspace(1)*, i32)* @hx_kernel0_0, !"maxntidx", i32 32}
!2 = !{void (i32, i32, float addrspace(1)*, i32)* @hx_kernel0_0, !"maxntidy", i32 1}
!3 = !{void (i32, i32, float addrspace(1)*, i32)* @hx_kernel0_0, !"maxntidz", i32 1}
