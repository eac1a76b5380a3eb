/* cudart_errors.h - generated from the cudaError enumeration of the CUDA 13 Runtime API
 * (names and values); X(name, value, description). Descriptions not written out read
 * "<name> (see the CUDA Runtime API documentation)". */
#define RT_ERRORS(X) \
    X(cudaSuccess, 0, "no error") \
    X(cudaErrorInvalidValue, 1, "invalid argument") \
    X(cudaErrorMemoryAllocation, 2, "out of memory") \
    X(cudaErrorInitializationError, 3, "initialization error") \
    X(cudaErrorCudartUnloading, 4, "driver shutting down") \
    X(cudaErrorProfilerDisabled, 5, "") \
    X(cudaErrorProfilerNotInitialized, 6, "") \
    X(cudaErrorProfilerAlreadyStarted, 7, "") \
    X(cudaErrorProfilerAlreadyStopped, 8, "") \
    X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument") \
    X(cudaErrorInvalidPitchValue, 12, "invalid pitch argument") \
    X(cudaErrorInvalidSymbol, 13, "invalid device symbol") \
    X(cudaErrorInvalidHostPointer, 16, "invalid host pointer") \
    X(cudaErrorInvalidDevicePointer, 17, "invalid device pointer") \
    X(cudaErrorInvalidTexture, 18, "invalid texture reference") \
    X(cudaErrorInvalidTextureBinding, 19, "") \
    X(cudaErrorInvalidChannelDescriptor, 20, "") \
    X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
    X(cudaErrorAddressOfConstant, 22, "") \
    X(cudaErrorTextureFetchFailed, 23, "") \
    X(cudaErrorTextureNotBound, 24, "") \
    X(cudaErrorSynchronizationError, 25, "") \
    X(cudaErrorInvalidFilterSetting, 26, "") \
    X(cudaErrorInvalidNormSetting, 27, "") \
    X(cudaErrorMixedDeviceExecution, 28, "") \
    X(cudaErrorNotYetImplemented, 31, "function not yet implemented") \
    X(cudaErrorMemoryValueTooLarge, 32, "") \
    X(cudaErrorStubLibrary, 34, "CUDA driver is a stub library") \
    X(cudaErrorInsufficientDriver, 35, "CUDA driver version is insufficient for CUDA runtime version") \
    X(cudaErrorCallRequiresNewerDriver, 36, "") \
    X(cudaErrorInvalidSurface, 37, "") \
    X(cudaErrorDuplicateVariableName, 43, "") \
    X(cudaErrorDuplicateTextureName, 44, "") \
    X(cudaErrorDuplicateSurfaceName, 45, "") \
    X(cudaErrorDevicesUnavailable, 46, "") \
    X(cudaErrorIncompatibleDriverContext, 49, "") \
    X(cudaErrorMissingConfiguration, 52, "__global__ function call is not configured") \
    X(cudaErrorPriorLaunchFailure, 53, "unspecified launch failure in prior launch") \
    X(cudaErrorLaunchMaxDepthExceeded, 65, "") \
    X(cudaErrorLaunchFileScopedTex, 66, "") \
    X(cudaErrorLaunchFileScopedSurf, 67, "") \
    X(cudaErrorSyncDepthExceeded, 68, "") \
    X(cudaErrorLaunchPendingCountExceeded, 69, "") \
    X(cudaErrorInvalidDeviceFunction, 98, "invalid device function") \
    X(cudaErrorNoDevice, 100, "no CUDA-capable device is detected") \
    X(cudaErrorInvalidDevice, 101, "invalid device ordinal") \
    X(cudaErrorDeviceNotLicensed, 102, "") \
    X(cudaErrorSoftwareValidityNotEstablished, 103, "") \
    X(cudaErrorStartupFailure, 127, "") \
    X(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid") \
    X(cudaErrorDeviceUninitialized, 201, "") \
    X(cudaErrorMapBufferObjectFailed, 205, "") \
    X(cudaErrorUnmapBufferObjectFailed, 206, "") \
    X(cudaErrorArrayIsMapped, 207, "") \
    X(cudaErrorAlreadyMapped, 208, "") \
    X(cudaErrorNoKernelImageForDevice, 209, "no kernel image is available for execution on the device") \
    X(cudaErrorAlreadyAcquired, 210, "") \
    X(cudaErrorNotMapped, 211, "") \
    X(cudaErrorNotMappedAsArray, 212, "") \
    X(cudaErrorNotMappedAsPointer, 213, "") \
    X(cudaErrorECCUncorrectable, 214, "") \
    X(cudaErrorUnsupportedLimit, 215, "") \
    X(cudaErrorDeviceAlreadyInUse, 216, "") \
    X(cudaErrorPeerAccessUnsupported, 217, "") \
    X(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed") \
    X(cudaErrorInvalidGraphicsContext, 219, "") \
    X(cudaErrorNvlinkUncorrectable, 220, "") \
    X(cudaErrorJitCompilerNotFound, 221, "") \
    X(cudaErrorUnsupportedPtxVersion, 222, "the provided PTX was compiled with an unsupported toolchain") \
    X(cudaErrorJitCompilationDisabled, 223, "") \
    X(cudaErrorUnsupportedExecAffinity, 224, "") \
    X(cudaErrorUnsupportedDevSideSync, 225, "") \
    X(cudaErrorContained, 226, "") \
    X(cudaErrorInvalidSource, 300, "device kernel image is invalid") \
    X(cudaErrorFileNotFound, 301, "file not found") \
    X(cudaErrorSharedObjectSymbolNotFound, 302, "") \
    X(cudaErrorSharedObjectInitFailed, 303, "") \
    X(cudaErrorOperatingSystem, 304, "") \
    X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle") \
    X(cudaErrorIllegalState, 401, "") \
    X(cudaErrorLossyQuery, 402, "") \
    X(cudaErrorSymbolNotFound, 500, "named symbol not found") \
    X(cudaErrorNotReady, 600, "device not ready") \
    X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
    X(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch") \
    X(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated") \
    X(cudaErrorLaunchIncompatibleTexturing, 703, "") \
    X(cudaErrorPeerAccessAlreadyEnabled, 704, "") \
    X(cudaErrorPeerAccessNotEnabled, 705, "") \
    X(cudaErrorSetOnActiveProcess, 708, "") \
    X(cudaErrorContextIsDestroyed, 709, "context is destroyed") \
    X(cudaErrorAssert, 710, "device-side assert triggered") \
    X(cudaErrorTooManyPeers, 711, "") \
    X(cudaErrorHostMemoryAlreadyRegistered, 712, "") \
    X(cudaErrorHostMemoryNotRegistered, 713, "pointer does not correspond to a registered memory region") \
    X(cudaErrorHardwareStackError, 714, "hardware stack error") \
    X(cudaErrorIllegalInstruction, 715, "an illegal instruction was encountered") \
    X(cudaErrorMisalignedAddress, 716, "misaligned address") \
    X(cudaErrorInvalidAddressSpace, 717, "operation not supported on global/shared address space") \
    X(cudaErrorInvalidPc, 718, "invalid program counter") \
    X(cudaErrorLaunchFailure, 719, "unspecified launch failure") \
    X(cudaErrorCooperativeLaunchTooLarge, 720, "") \
    X(cudaErrorTensorMemoryLeak, 721, "") \
    X(cudaErrorNotPermitted, 800, "operation not permitted") \
    X(cudaErrorNotSupported, 801, "operation not supported") \
    X(cudaErrorSystemNotReady, 802, "") \
    X(cudaErrorSystemDriverMismatch, 803, "") \
    X(cudaErrorCompatNotSupportedOnDevice, 804, "") \
    X(cudaErrorMpsConnectionFailed, 805, "") \
    X(cudaErrorMpsRpcFailure, 806, "") \
    X(cudaErrorMpsServerNotReady, 807, "") \
    X(cudaErrorMpsMaxClientsReached, 808, "") \
    X(cudaErrorMpsMaxConnectionsReached, 809, "") \
    X(cudaErrorMpsClientTerminated, 810, "") \
    X(cudaErrorCdpNotSupported, 811, "") \
    X(cudaErrorCdpVersionMismatch, 812, "") \
    X(cudaErrorStreamCaptureUnsupported, 900, "") \
    X(cudaErrorStreamCaptureInvalidated, 901, "") \
    X(cudaErrorStreamCaptureMerge, 902, "") \
    X(cudaErrorStreamCaptureUnmatched, 903, "") \
    X(cudaErrorStreamCaptureUnjoined, 904, "") \
    X(cudaErrorStreamCaptureIsolation, 905, "") \
    X(cudaErrorStreamCaptureImplicit, 906, "") \
    X(cudaErrorCapturedEvent, 907, "") \
    X(cudaErrorStreamCaptureWrongThread, 908, "") \
    X(cudaErrorTimeout, 909, "") \
    X(cudaErrorGraphExecUpdateFailure, 910, "") \
    X(cudaErrorExternalDevice, 911, "") \
    X(cudaErrorInvalidClusterSize, 912, "") \
    X(cudaErrorFunctionNotLoaded, 913, "function not loaded") \
    X(cudaErrorInvalidResourceType, 914, "") \
    X(cudaErrorInvalidResourceConfiguration, 915, "") \
    X(cudaErrorUnknown, 999, "unknown error") \

