//! Single-node broadcast by the binomial tree: at step k every node that holds
//! the packet copies it across dimension k, so all 2^d nodes hold it after d
//! steps with 2^d − 1 sends, one per node reached. The seed paper takes this
//! problem as known (section 1); it is the dual of accumulate.

use txverify_core::network::NetworkName;
use txverify_core::schedule::{BROADCAST, Collective, Ports, Schedule, TimedSend};

/// The binomial-tree broadcast from `root`: at step k + 1 (k = 0 … d − 1) each
/// node `root ⊕ y` with y < 2^k copies the packet to `root ⊕ y ⊕ 2^k`. Sends
/// are in step order.
pub fn build(d: u32, root: u32) -> Schedule {
    let mut sends = Vec::with_capacity((1usize << d) - 1);
    for k in 0..d {
        sends.extend((0..1u32 << k).map(|y| TimedSend {
            step: k + 1,
            from: root ^ y,
            to: root ^ y ^ (1 << k),
            source: root,
            destination: BROADCAST,
        }));
    }
    Schedule {
        network: Some(NetworkName::Hypercube(d)),
        ports: Some(Ports::All),
        collective: Collective::broadcast(root),
        sends,
    }
}
