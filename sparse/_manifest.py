"""The rocSPARSE names rocmath.sparse provides: the contract ``tests/test_sparse_manifest.py`` checks.

Written as rocSPARSE's own tables: every function its public headers declare
(``library/include``: rocsparse-auxiliary.h and the ``internal/<family>/rocsparse_<op>.h``
headers rocsparse-functions.h includes), without the ``rocsparse_`` prefix, following
rocSPARSE 3.3.0 (ROCm 6.3.0), commit 1c69e401f12351efb3f16700a8a557f3b772ab4e
(2024-10-23): 677 functions.

Each family (a directory of ``internal/``) maps an operation to the precision prefixes
it has (``"s d c z"``: ``scsrmv``, ``dcsrmv``...; ``i`` is sctr's ``rocsparse_int``
instance, ``ds``/``dc`` the mixed numeric-boost instances of the ILU0s) or to
:data:`UNTYPED` for a name without prefix (index-only routines, ``clear`` and
``zero_pivot`` queries, the generic API, whose types come from its descriptors); one line
a header, in the header's order.  :data:`DEPRECATED` lists the names rocSPARSE marks
deprecated (still declared and exported); :data:`MEMSTAT` those it declares only under
``ROCSPARSE_WITH_MEMSTAT`` (a ``BUILD_MEMSTAT=ON`` build).

:data:`ROCMATH_EXTRAS` is the rest of rocmath.sparse's public names: rocSPARSE's types and
enums as Python classes, its statuses as exceptions, and the cupyx-like matrices.
"""

from __future__ import annotations

SDCZ = "s d c z"
SD = "s d"
CZ = "c z"
#: No precision prefix.
UNTYPED = ""

#: rocsparse-auxiliary.h (handle, descriptors, infos; the generic API's descriptors), in its order.
AUXILIARY = (
    "create_handle", "destroy_handle", "get_status_name", "get_status_description", "set_stream", "get_stream",
    "set_pointer_mode", "get_pointer_mode", "get_version", "get_git_rev",
    # rocsparse_mat_descr
    "create_mat_descr", "copy_mat_descr", "destroy_mat_descr", "set_mat_index_base", "get_mat_index_base",
    "set_mat_type", "get_mat_type", "set_mat_fill_mode", "get_mat_fill_mode", "set_mat_diag_type",
    "get_mat_diag_type", "set_mat_storage_mode", "get_mat_storage_mode",
    # rocsparse_hyb_mat, rocsparse_mat_info, rocsparse_color_info
    "create_hyb_mat", "copy_hyb_mat", "destroy_hyb_mat", "create_mat_info", "copy_mat_info", "destroy_mat_info",
    "create_color_info", "copy_color_info", "destroy_color_info",
    # rocsparse_spvec_descr
    "create_spvec_descr", "create_const_spvec_descr", "destroy_spvec_descr", "spvec_get", "const_spvec_get",
    "spvec_get_index_base", "spvec_get_values", "const_spvec_get_values", "spvec_set_values",
    # rocsparse_spmat_descr
    "create_coo_descr", "create_const_coo_descr", "create_coo_aos_descr", "create_bsr_descr", "create_csr_descr",
    "create_const_csr_descr", "create_csc_descr", "create_const_csc_descr", "create_ell_descr", "create_bell_descr",
    "create_const_bell_descr", "destroy_spmat_descr",
    "create_sparse_to_sparse_descr", "sparse_to_sparse_permissive", "destroy_sparse_to_sparse_descr",
    "create_extract_descr", "destroy_extract_descr",
    "coo_get", "const_coo_get", "coo_aos_get", "const_coo_aos_get", "csr_get", "const_csr_get", "csc_get",
    "const_csc_get", "ell_get", "const_ell_get", "bell_get", "const_bell_get", "bsr_get", "const_bsr_get",
    "coo_set_pointers", "coo_aos_set_pointers", "csr_set_pointers", "csc_set_pointers", "ell_set_pointers",
    "bsr_set_pointers",
    "spmat_get_size", "spmat_get_format", "spmat_get_index_base", "spmat_get_values", "const_spmat_get_values",
    "spmat_set_values", "spmat_get_nnz", "spmat_set_nnz", "spmat_get_strided_batch", "spmat_set_strided_batch",
    "coo_set_strided_batch", "csr_set_strided_batch", "csc_set_strided_batch", "spmat_get_attribute",
    "spmat_set_attribute",
    # rocsparse_dnvec_descr, rocsparse_dnmat_descr
    "create_dnvec_descr", "create_const_dnvec_descr", "destroy_dnvec_descr", "dnvec_get", "const_dnvec_get",
    "dnvec_get_values", "const_dnvec_get_values", "dnvec_set_values",
    "create_dnmat_descr", "create_const_dnmat_descr", "destroy_dnmat_descr", "dnmat_get", "const_dnmat_get",
    "dnmat_get_values", "const_dnmat_get_values", "dnmat_set_values", "dnmat_get_strided_batch",
    "dnmat_set_strided_batch",
)

#: rocsparse-auxiliary.h's debug switches: ``enable_debug<s>``, ``disable_debug<s>``, ``state_debug<s>`` each.
DEBUG = ("_kernel_launch", "_arguments", "_arguments_verbose", "", "_verbose", "_force_host_assert")

#: rocsparse-auxiliary.h under ``#ifdef ROCSPARSE_WITH_MEMSTAT`` (defined in ``BUILD_MEMSTAT=ON`` builds only).
MEMSTAT = (
    "memstat_report", "hip_free", "hip_malloc", "hip_free_async", "hip_malloc_async", "hip_host_free",
    "hip_host_malloc", "hip_free_managed", "hip_malloc_managed",
)

#: internal/level1.
LEVEL1 = {
    "axpyi": SDCZ, "dotci": CZ, "doti": SDCZ, "gthr": SDCZ, "gthrz": SDCZ, "roti": SD, "sctr": "s d c z i",
}

#: internal/level2.
LEVEL2 = {
    "bsrmv_ex_analysis": SDCZ, "bsrmv_ex": SDCZ, "bsrmv_ex_clear": UNTYPED, "bsrmv_analysis": SDCZ, "bsrmv": SDCZ,
    "bsrmv_clear": UNTYPED,
    "bsrsv_zero_pivot": UNTYPED, "bsrsv_buffer_size": SDCZ, "bsrsv_analysis": SDCZ, "bsrsv_clear": UNTYPED,
    "bsrsv_solve": SDCZ,
    "bsrxmv": SDCZ,
    "coomv": SDCZ,
    "csritsv_zero_pivot": UNTYPED, "csritsv_buffer_size": SDCZ, "csritsv_analysis": SDCZ, "csritsv_clear": UNTYPED,
    "csritsv_solve": SDCZ,
    "csrmv_analysis": SDCZ, "csrmv_clear": UNTYPED, "csrmv": SDCZ,
    "csrsv_zero_pivot": UNTYPED, "csrsv_buffer_size": SDCZ, "csrsv_analysis": SDCZ, "csrsv_clear": UNTYPED,
    "csrsv_solve": SDCZ,
    "ellmv": SDCZ,
    "gebsrmv": SDCZ,
    "gemvi_buffer_size": SDCZ, "gemvi": SDCZ,
    "hybmv": SDCZ,
}

#: internal/level3.
LEVEL3 = {
    "bsrmm": SDCZ,
    "bsrsm_zero_pivot": UNTYPED, "bsrsm_buffer_size": SDCZ, "bsrsm_analysis": SDCZ, "bsrsm_clear": UNTYPED,
    "bsrsm_solve": SDCZ,
    "csrmm": SDCZ,
    "csrsm_zero_pivot": UNTYPED, "csrsm_buffer_size": SDCZ, "csrsm_analysis": SDCZ, "csrsm_clear": UNTYPED,
    "csrsm_solve": SDCZ,
    "gebsrmm": SDCZ,
    "gemmi": SDCZ,
}

#: internal/extra.
EXTRA = {
    "bsrgeam_nnzb": UNTYPED, "bsrgeam": SDCZ,
    "bsrgemm_buffer_size": SDCZ, "bsrgemm_nnzb": UNTYPED, "bsrgemm": SDCZ,
    "csrgeam_nnz": UNTYPED, "csrgeam": SDCZ,
    "csrgemm_buffer_size": SDCZ, "csrgemm_nnz": UNTYPED, "csrgemm": SDCZ, "csrgemm_symbolic": UNTYPED,
    "csrgemm_numeric": SDCZ,
}

#: internal/precond.
PRECOND = {
    "bsric0_zero_pivot": UNTYPED, "bsric0_buffer_size": SDCZ, "bsric0_analysis": SDCZ, "bsric0_clear": UNTYPED,
    "bsric0": SDCZ,
    "bsrilu0_zero_pivot": UNTYPED, "bsrilu0_numeric_boost": "s d c z ds dc", "bsrilu0_buffer_size": SDCZ,
    "bsrilu0_analysis": SDCZ, "bsrilu0_clear": UNTYPED, "bsrilu0": SDCZ,
    "csric0_zero_pivot": UNTYPED, "csric0_singular_pivot": UNTYPED, "csric0_set_tolerance": UNTYPED,
    "csric0_get_tolerance": UNTYPED, "csric0_buffer_size": SDCZ, "csric0_analysis": SDCZ, "csric0_clear": UNTYPED,
    "csric0": SDCZ,
    "csrilu0_zero_pivot": UNTYPED, "csrilu0_set_tolerance": UNTYPED, "csrilu0_get_tolerance": UNTYPED,
    "csrilu0_singular_pivot": UNTYPED, "csrilu0_numeric_boost": "s d c z ds dc", "csrilu0_buffer_size": SDCZ,
    "csrilu0_analysis": SDCZ, "csrilu0_clear": UNTYPED, "csrilu0": SDCZ,
    "csritilu0_buffer_size": UNTYPED, "csritilu0_preprocess": UNTYPED, "csritilu0_compute": SDCZ,
    "csritilu0_history": SDCZ,
    "gpsv_interleaved_batch_buffer_size": SDCZ, "gpsv_interleaved_batch": SDCZ,
    "gtsv_buffer_size": SDCZ, "gtsv": SDCZ, "gtsv_no_pivot_buffer_size": SDCZ, "gtsv_no_pivot": SDCZ,
    "gtsv_no_pivot_strided_batch_buffer_size": SDCZ, "gtsv_no_pivot_strided_batch": SDCZ,
    "gtsv_interleaved_batch_buffer_size": SDCZ, "gtsv_interleaved_batch": SDCZ,
}

#: internal/conversion.
CONVERSION = {
    "bsr2csr": SDCZ,
    "bsrpad_value": SDCZ,
    "coo2csr": UNTYPED,
    "coo2dense": SDCZ,
    "coosort_buffer_size": UNTYPED, "coosort_by_row": UNTYPED, "coosort_by_column": UNTYPED,
    "csc2dense": SDCZ,
    "cscsort_buffer_size": UNTYPED, "cscsort": UNTYPED,
    "csr2bsr_nnz": UNTYPED, "csr2bsr": SDCZ,
    "csr2coo": UNTYPED,
    "csr2csc_buffer_size": UNTYPED, "csr2csc": SDCZ,
    "csr2csr_compress": SDCZ,
    "csr2dense": SDCZ,
    "csr2ell_width": UNTYPED, "csr2ell": SDCZ,
    "csr2gebsr_buffer_size": SDCZ, "csr2gebsr_nnz": UNTYPED, "csr2gebsr": SDCZ,
    "csr2hyb": SDCZ,
    "csrsort_buffer_size": UNTYPED, "csrsort": UNTYPED,
    "dense2coo": SDCZ,
    "dense2csc": SDCZ,
    "dense2csr": SDCZ,
    "ell2csr_nnz": UNTYPED, "ell2csr": SDCZ,
    "gebsr2csr": SDCZ,
    "gebsr2gebsc_buffer_size": SDCZ, "gebsr2gebsc": SDCZ,
    "gebsr2gebsr_buffer_size": SDCZ, "gebsr2gebsr_nnz": UNTYPED, "gebsr2gebsr": SDCZ,
    "hyb2csr_buffer_size": UNTYPED, "hyb2csr": SDCZ,
    "create_identity_permutation": UNTYPED, "inverse_permutation": UNTYPED, "set_identity_permutation": UNTYPED,
    "nnz": SDCZ,
    "nnz_compress": SDCZ,
    "prune_csr2csr_buffer_size": SD, "prune_csr2csr_nnz": SD, "prune_csr2csr": SD,
    "prune_csr2csr_by_percentage_buffer_size": SD, "prune_csr2csr_nnz_by_percentage": SD,
    "prune_csr2csr_by_percentage": SD,
    "prune_dense2csr_buffer_size": SD, "prune_dense2csr_nnz": SD, "prune_dense2csr": SD,
    "prune_dense2csr_by_percentage_buffer_size": SD, "prune_dense2csr_nnz_by_percentage": SD,
    "prune_dense2csr_by_percentage": SD,
}

#: internal/reordering.
REORDERING = {"csrcolor": SDCZ}

#: internal/generic: the generic API (types from the descriptors: no prefixes).
GENERIC = {
    "axpby": UNTYPED,
    "check_spmat": UNTYPED,
    "dense_to_sparse": UNTYPED,
    "extract": UNTYPED, "extract_buffer_size": UNTYPED, "extract_nnz": UNTYPED,
    "gather": UNTYPED,
    "rot": UNTYPED,
    "scatter": UNTYPED,
    "sddmm_buffer_size": UNTYPED, "sddmm_preprocess": UNTYPED, "sddmm": UNTYPED,
    "sparse_to_dense": UNTYPED,
    "sparse_to_sparse_buffer_size": UNTYPED, "sparse_to_sparse": UNTYPED,
    "spgemm": UNTYPED,
    "spitsv": UNTYPED,
    "spmm": UNTYPED,
    "spmv": UNTYPED, "spmv_ex": UNTYPED,
    "spsm": UNTYPED,
    "spsv": UNTYPED,
    "spvv": UNTYPED,
}

#: internal/util.
UTIL = {
    "check_matrix_coo_buffer_size": SDCZ, "check_matrix_coo": SDCZ,
    "check_matrix_csc_buffer_size": SDCZ, "check_matrix_csc": SDCZ,
    "check_matrix_csr_buffer_size": SDCZ, "check_matrix_csr": SDCZ,
    "check_matrix_ell_buffer_size": SDCZ, "check_matrix_ell": SDCZ,
    "check_matrix_gebsc_buffer_size": SDCZ, "check_matrix_gebsc": SDCZ,
    "check_matrix_gebsr_buffer_size": SDCZ, "check_matrix_gebsr": SDCZ,
    "check_matrix_hyb_buffer_size": UNTYPED, "check_matrix_hyb": UNTYPED,
}

#: The compute families, by their ``internal/`` directory.
FAMILIES = {
    "level1": LEVEL1, "level2": LEVEL2, "level3": LEVEL3, "extra": EXTRA, "precond": PRECOND,
    "conversion": CONVERSION, "reordering": REORDERING, "generic": GENERIC, "util": UTIL,
}

#: Declared ``__attribute__((deprecated))`` (bsrmv_ex: use bsrmv; spmv_ex: use spmv).
DEPRECATED = frozenset(
    [f"{p}bsrmv_ex{s}" for p in SDCZ.split() for s in ("", "_analysis")] + ["bsrmv_ex_clear", "spmv_ex"]
)


def expand(table: dict[str, str]) -> list[str]:
    """The names of a family table: each operation with each of its prefixes, or bare when :data:`UNTYPED`."""
    return [f"{p}{op}" for op, precs in table.items() for p in (precs.split() or [""])]


def auxiliary_names() -> frozenset[str]:
    """rocsparse-auxiliary.h's names, the debug switches and :data:`MEMSTAT` included."""
    debug = [f"{verb}_debug{s}" for s in DEBUG for verb in ("enable", "disable", "state")]
    return frozenset(AUXILIARY) | frozenset(debug) | frozenset(MEMSTAT)


def compute_routines() -> frozenset[str]:
    """Every name of the ``internal/`` families."""
    return frozenset(n for table in FAMILIES.values() for n in expand(table))


def all_names() -> frozenset[str]:
    """Every function rocSPARSE's public headers declare, without ``rocsparse_`` (677)."""
    return auxiliary_names() | compute_routines()


#: rocmath.sparse's public names that are no rocSPARSE function, by kind: name -> what it stands for.
ROCMATH_EXTRAS = {
    # The cupyx.scipy.sparse-like layer (sparse/_matrix.py).
    "matrices": {
        "csr_matrix": "cupyx.scipy.sparse.csr_matrix", "csc_matrix": "cupyx.scipy.sparse.csc_matrix",
        "coo_matrix": "cupyx.scipy.sparse.coo_matrix", "eye": "cupyx.scipy.sparse.eye",
        "identity": "cupyx.scipy.sparse.identity", "diags": "cupyx.scipy.sparse.diags",
        "random": "cupyx.scipy.sparse.random", "issparse": "cupyx.scipy.sparse.issparse",
        "aslinearoperator": "scipy.sparse.linalg.aslinearoperator over the device matrices",
    },
    # rocSPARSE's opaque types (rocsparse-types.h), as the classes its create_* functions return.
    "types": {
        "SparseHandle": "rocsparse_handle", "MatDescr": "rocsparse_mat_descr", "MatInfo": "rocsparse_mat_info",
        "HybMat": "rocsparse_hyb_mat", "ColorInfo": "rocsparse_color_info",
        "SpVecDescr": "rocsparse_spvec_descr", "SpMatDescr": "rocsparse_spmat_descr",
        "DnVecDescr": "rocsparse_dnvec_descr", "DnMatDescr": "rocsparse_dnmat_descr",
        "ExtractDescr": "rocsparse_extract_descr", "SparseToSparseDescr": "rocsparse_sparse_to_sparse_descr",
        "CsritsvInfo": "rocSPARSE's internal rocsparse_csritsv_info (handle.h), kept in a mat_info",
    },
    # rocSPARSE's enums (rocsparse-types.h), as int enums of its values (Itilu0Option an IntFlag).
    "enums": {
        "Action": "rocsparse_action", "AnalysisPolicy": "rocsparse_analysis_policy",
        "CheckSpmatStage": "rocsparse_check_spmat_stage", "DataStatus": "rocsparse_data_status",
        "Datatype": "rocsparse_datatype", "DenseToSparseAlg": "rocsparse_dense_to_sparse_alg",
        "DiagType": "rocsparse_diag_type", "Direction": "rocsparse_direction",
        "ExtractAlg": "rocsparse_extract_alg", "ExtractStage": "rocsparse_extract_stage",
        "FillMode": "rocsparse_fill_mode", "Format": "rocsparse_format",
        "GpsvInterleavedAlg": "rocsparse_gpsv_interleaved_alg", "GtsvInterleavedAlg": "rocsparse_gtsv_interleaved_alg",
        "HybPartition": "rocsparse_hyb_partition", "IndexBase": "rocsparse_index_base",
        "IndexType": "rocsparse_indextype", "Itilu0Alg": "rocsparse_itilu0_alg",
        "Itilu0Option": "rocsparse_itilu0_option", "MatrixType": "rocsparse_matrix_type",
        "Operation": "rocsparse_operation", "Order": "rocsparse_order",
        "PointerMode": "rocsparse_pointer_mode (rocmath.handle's, shared with rocBLAS)",
        "SDDMMAlg": "rocsparse_sddmm_alg", "SolvePolicy": "rocsparse_solve_policy",
        "SparseToDenseAlg": "rocsparse_sparse_to_dense_alg", "SparseToSparseAlg": "rocsparse_sparse_to_sparse_alg",
        "SparseToSparseStage": "rocsparse_sparse_to_sparse_stage", "SpGEMMAlg": "rocsparse_spgemm_alg",
        "SpGEMMStage": "rocsparse_spgemm_stage", "SpITSVAlg": "rocsparse_spitsv_alg",
        "SpITSVStage": "rocsparse_spitsv_stage", "SpMatAttribute": "rocsparse_spmat_attribute",
        "SpMMAlg": "rocsparse_spmm_alg", "SpMMStage": "rocsparse_spmm_stage", "SpMVAlg": "rocsparse_spmv_alg",
        "SpMVStage": "rocsparse_spmv_stage", "SpSMAlg": "rocsparse_spsm_alg", "SpSMStage": "rocsparse_spsm_stage",
        "SpSVAlg": "rocsparse_spsv_alg", "SpSVStage": "rocsparse_spsv_stage", "Status": "rocsparse_status",
        "StorageMode": "rocsparse_storage_mode",
    },
    # rocsparse_status as exceptions (sparse/_types.py).
    "errors": {
        "SparseError": "any rocsparse_status but success", "error_for_status": "rocsparse_status -> exception class",
        "SparseInvalidHandleError": "rocsparse_status_invalid_handle",
        "SparseNotImplementedError": "rocsparse_status_not_implemented",
        "SparseInvalidPointerError": "rocsparse_status_invalid_pointer",
        "SparseInvalidSizeError": "rocsparse_status_invalid_size",
        "SparseMemoryError": "rocsparse_status_memory_error", "SparseInternalError": "rocsparse_status_internal_error",
        "SparseInvalidValueError": "rocsparse_status_invalid_value",
        "SparseArchMismatchError": "rocsparse_status_arch_mismatch",
        "SparseZeroPivotError": "rocsparse_status_zero_pivot",
        "SparseNotInitializedError": "rocsparse_status_not_initialized",
        "SparseTypeMismatchError": "rocsparse_status_type_mismatch",
        "SparseRequiresSortedStorageError": "rocsparse_status_requires_sorted_storage",
    },
    # The generic API's type tables (rocSPARSE's documentation of spmv and spmm).
    "constants": {
        "SPMV_TYPES": "spmv's (A, x, y, compute_type) combinations",
        "SPMM_TYPES": "spmm's (A, B, C, compute_type) combinations",
    },
}


def rocmath_extras() -> frozenset[str]:
    """Every name of :data:`ROCMATH_EXTRAS`."""
    return frozenset(n for kind in ROCMATH_EXTRAS.values() for n in kind)
