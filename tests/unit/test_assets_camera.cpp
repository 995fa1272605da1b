// Camera poses from glTF node transforms (roll and straight up/down included) and framing a box: every
// corner in view, the tightest side at the margin, and an orbit that keeps the box in view.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>

#include "assets/camera.h"

using namespace sieve::assets;

namespace {

float maxDifference(const glm::mat4& a, const glm::mat4& b) {
    float d = 0.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) d = std::max(d, std::abs(a[c][r] - b[c][r]));
    return d;
}

// Largest |x| / (depth tan(fovX / 2)) and |y| / (depth tan(fovY / 2)) over the box's corners; < 0 when a
// corner is behind the camera.
float largestNdc(const CameraPose& pose, glm::vec3 mn, glm::vec3 mx, float fovY, float aspect) {
    const glm::mat4 view = viewMatrix(pose);
    const float ty = std::tan(fovY * 0.5f), tx = ty * aspect;
    float worst = 0.0f;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 c(k & 1 ? mx.x : mn.x, k & 2 ? mx.y : mn.y, k & 4 ? mx.z : mn.z);
        const glm::vec3 v = glm::vec3(view * glm::vec4(c, 1.0f));
        if (!(-v.z > 0.0f)) return -1.0f;
        worst = std::max({worst, std::abs(v.x) / (-v.z * tx), std::abs(v.y) / (-v.z * ty)});
    }
    return worst;
}

}  // namespace

TEST(CameraPose, FromNodeTransformsIncludingRollAndStraightDown) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<glm::quat> rotations = {
        glm::quat(1, 0, 0, 0),                                      // looks down -Z
        glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)),    // down -X
        glm::angleAxis(glm::radians(-90.0f), glm::vec3(1, 0, 0)),   // straight down
        glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0)),    // straight up
        glm::angleAxis(glm::radians(-90.0f), glm::vec3(1, 0, 0)) *  // straight down, turned
            glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 0, 1)),
        glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 0, 1)),  // rolled 30 degrees
    };
    for (int i = 0; i < 40; ++i) rotations.push_back(glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng))));
    for (size_t i = 0; i < rotations.size(); ++i) {
        const glm::vec3 t(u(rng) * 10.0f, u(rng) * 10.0f, u(rng) * 10.0f);
        const glm::mat4 world = glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(rotations[i]);
        const CameraPose pose = poseFromTransform(world);
        EXPECT_LT(maxDifference(viewMatrix(pose), glm::inverse(world)), 1e-4f) << "rotation " << i;
        EXPECT_LT(glm::distance(cameraUp(pose), glm::vec3(world[1])), 1e-4f) << "rotation " << i;
    }
    // Scale in the node's transform changes nothing.
    const glm::mat4 world = glm::scale(glm::mat4_cast(rotations[5]), glm::vec3(3.0f));
    EXPECT_LT(maxDifference(viewMatrix(poseFromTransform(world)), glm::inverse(glm::mat4_cast(rotations[5]))), 1e-4f);
    // +30 degrees about the camera's +Z is -30 about its forward (-Z): roll is right-handed about forward.
    EXPECT_NEAR(glm::degrees(poseFromTransform(glm::mat4_cast(rotations[5])).roll), -30.0f, 1e-3f);
}

TEST(CameraFraming, EveryCornerInViewAndTheTightestSideAtTheMargin) {
    const float fovY = glm::radians(60.0f);
    struct Case {
        glm::vec3 mn, mx;
        float aspect, yaw, pitch;
    };
    const Case cases[] = {
        {glm::vec3(-0.5f), glm::vec3(0.5f), 2.0f, kFramingYaw, kFramingPitch},
        {glm::vec3(-100, 0, -100), glm::vec3(100, 3, 100), 16.0f / 9.0f, kFramingYaw, kFramingPitch},  // flat
        {glm::vec3(0, 0, 0), glm::vec3(1, 50, 1), 0.5f, 0.0f, 0.0f},                                   // a tower
        {glm::vec3(5, 5, 5), glm::vec3(5.001f, 6, 8), 1.0f, 1.0f, -0.3f},
        {glm::vec3(-2, -1, -3), glm::vec3(2, 1, 3), 1.5f, 0.0f, -1.5707963f},  // straight down
    };
    for (const Case& c : cases) {
        const Framing f = frameBounds(c.mn, c.mx, fovY, c.aspect, c.yaw, c.pitch, 0.05f);
        const float ndc = largestNdc(f.pose, c.mn, c.mx, fovY, c.aspect);
        EXPECT_LE(ndc, 0.95f + 1e-4f) << c.aspect;
        EXPECT_GE(ndc, 0.95f - 1e-3f) << "not as close as the view allows, aspect " << c.aspect;
        EXPECT_GT(f.depthMin, 0.0f);
        EXPECT_NEAR(glm::distance(f.pose.position, (c.mn + c.mx) * 0.5f), f.distance, 1e-3f * f.distance);
    }
    // An empty scene (min > max) frames the unit cube at the origin.
    const Framing empty = frameBounds(glm::vec3(1e30f), glm::vec3(-1e30f), fovY, 1.0f, 0.0f, 0.0f);
    EXPECT_TRUE(std::isfinite(empty.distance) && empty.distance > 0.5f);
}

TEST(CameraFraming, OrbitKeepsTheBoxInViewAndComesBack) {
    const float fovY = glm::radians(60.0f), aspect = 16.0f / 9.0f;
    const glm::vec3 mn(-10, 0, -2), mx(10, 4, 2);  // long: the framing distance changes with the heading
    const CameraPose start = orbitPose(mn, mx, fovY, aspect, 0.0f);
    const CameraPose end = orbitPose(mn, mx, fovY, aspect, 1.0f);
    EXPECT_LT(glm::distance(start.position, end.position), 1e-3f);
    EXPECT_NEAR(start.yaw, kFramingYaw, 1e-6f);
    float distance = -1.0f;
    for (int i = 0; i <= 200; ++i) {
        const CameraPose p = orbitPose(mn, mx, fovY, aspect, float(i) / 200.0f);
        const float ndc = largestNdc(p, mn, mx, fovY, aspect);
        EXPECT_GT(ndc, 0.0f) << i;
        EXPECT_LE(ndc, 1.0f) << "the box leaves the view at t = " << float(i) / 200.0f;
        const float d = glm::distance(p.position, (mn + mx) * 0.5f);
        if (distance < 0.0f) distance = d;
        EXPECT_NEAR(d, distance, 1e-3f * distance) << "a circle";
    }
}
